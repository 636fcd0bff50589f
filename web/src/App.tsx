/**
 * The viewer shell: the key form until a key is stored, then a header (where you
 * are, a "change key" control) and the view of the current hash route. The viewer
 * reads the design; it writes only a review of a change request (approve or request
 * changes), offered only to those who may give one, and a rebase that resolves a
 * branch's merge conflicts (the merge preview's ConflictResolver), offered only to a key
 * that may rebase.
 */
import { FormEvent, useState } from 'react';
import { ApiError } from './api';
import { forgetKey, readKey, storeKey } from './keyStore';
import { href, useRoute } from './router';
import { BranchesView } from './BranchesView';
import { ChangeRequestsView } from './reviews/ChangeRequestsView';
import { ChangeRequestView } from './reviews/ChangeRequestView';
import { DecisionView } from './DecisionView';
import { GraphView } from './graph/GraphView';
import { ProjectsView } from './ProjectsView';

export function App() {
  const [hasKey, setHasKey] = useState(() => readKey() !== null);
  const route = useRoute();
  const signOut = () => {
    forgetKey();
    setHasKey(false);
  };
  return (
    <div className="shell">
      <header className="top">
        <a className="brand" href={href({ name: 'projects' })}>
          Graph design viewer
        </a>
        <span className="readonly-note">reads the design; writes only reviews and rebases</span>
        {hasKey && (
          <button type="button" className="link-button" onClick={signOut}>
            Change API key
          </button>
        )}
      </header>
      <main className="content">
        {!hasKey ? (
          <KeyForm onKey={() => setHasKey(true)} />
        ) : route.name === 'projects' ? (
          <ProjectsView onUnauthorized={signOut} />
        ) : route.name === 'branches' ? (
          <BranchesView projectId={route.projectId} />
        ) : route.name === 'decision' ? (
          <DecisionView projectId={route.projectId} decisionId={route.decisionId} />
        ) : route.name === 'changeRequests' ? (
          <ChangeRequestsView projectId={route.projectId} />
        ) : route.name === 'changeRequest' ? (
          <ChangeRequestView
            key={route.changeRequestId}
            projectId={route.projectId}
            changeRequestId={route.changeRequestId}
          />
        ) : (
          <GraphView
            key={`${route.branchId}@${route.version ?? 'head'}`}
            projectId={route.projectId}
            branchId={route.branchId}
            tab={route.tab}
            pinned={route.version ?? null}
          />
        )}
      </main>
    </div>
  );
}

function KeyForm({ onKey }: { onKey: () => void }) {
  const [value, setValue] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!value.trim()) return;
    storeKey(value);
    setValue('');
    onKey();
  };
  return (
    <form className="key-form" onSubmit={submit} aria-labelledby="key-title">
      <h1 id="key-title">Paste an API key</h1>
      <p>
        The key is kept in this tab only (session storage) and sent only as the bearer header to
        this service.
      </p>
      <label htmlFor="api-key">API key</label>
      <input
        id="api-key"
        type="password"
        autoComplete="off"
        spellCheck={false}
        value={value}
        onChange={(e) => setValue(e.target.value)}
      />
      <button type="submit">Open</button>
    </form>
  );
}

export function ErrorBox({ error, onRetryKey }: { error: Error; onRetryKey?: () => void }) {
  const unauthorized = error instanceof ApiError && error.status === 401;
  return (
    <div className="error" role="alert" data-status={error instanceof ApiError ? error.status : ''}>
      <p>{error.message}</p>
      {unauthorized && onRetryKey && (
        <button type="button" onClick={onRetryKey}>
          Enter another key
        </button>
      )}
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="loading" role="status">
      Loading {what}…
    </p>
  );
}
