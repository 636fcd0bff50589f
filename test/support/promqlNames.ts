/**
 * The metric names a PromQL expression reads, and the names a /metrics exposition
 * offers: enough of PromQL for the dashboard and the alerting rules of
 * deploy/observability (selectors, functions, aggregations with by/without,
 * on/ignoring matching, ranges), so that a test can say which of their names the
 * service does not export.
 */

const KEYWORDS = new Set([
  'and',
  'or',
  'unless',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'bool',
  'offset',
  'inf',
  'nan',
  'le',
]);

/** Metric names `expr` reads (Grafana's $variables and ${variables} are left out). */
export function promqlMetricNames(expr: string): string[] {
  const bare = expr
    .replace(/\$\{[^}]*\}|\$\w+/g, ' ')
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = new Set<string>();
  for (const m of bare.matchAll(
    /(?<![A-Za-z0-9_:.])[A-Za-z_:][A-Za-z0-9_:]*(?![A-Za-z0-9_:]|\s*\()/g,
  )) {
    if (!KEYWORDS.has(m[0].toLowerCase())) names.add(m[0]);
  }
  return [...names];
}

/**
 * The sample names an exposition offers: each family of a `# TYPE` line, with
 * _bucket, _sum and _count for histograms and _sum and _count for summaries.
 */
export function exposedMetricNames(exposition: string): Set<string> {
  const names = new Set<string>();
  for (const m of exposition.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    const [, name, type] = m;
    names.add(name);
    if (type === 'histogram') for (const s of ['_bucket', '_sum', '_count']) names.add(name + s);
    if (type === 'summary') for (const s of ['_sum', '_count']) names.add(name + s);
  }
  return names;
}
