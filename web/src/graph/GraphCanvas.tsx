/**
 * The canvas: lays out what is on screen with elkjs and draws it with React Flow
 * (read-only: nothing can be dragged or connected). Marks of the active overlay
 * are put on nodes and wires as classes. The container says data-ready="true" once
 * the current layout is drawn (the browser test and the bench wait for it).
 */
import {
  Background,
  Controls,
  Edge,
  MarkerType,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
} from '@xyflow/react';
import { useEffect, useMemo, useState } from 'react';
import { LoadedGraph, visibleEdges, visibleNodes } from './graphModel';
import { layoutGraph } from './layout';
import { NodeCard, NodeCardNode } from './NodeCard';
import type { Marks } from './overlays';

const NODE_TYPES = { card: NodeCard };

export interface CanvasProps {
  graph: LoadedGraph;
  revision: number;
  expanded: ReadonlySet<string>;
  loadingIds: ReadonlySet<string>;
  marks: Marks;
  selectedId: string | null;
  focusId: string | null;
  onSelect: (id: string | null) => void;
  onToggle: (id: string) => void;
}

export function GraphCanvas(props: CanvasProps) {
  return (
    <ReactFlowProvider>
      <Canvas {...props} />
    </ReactFlowProvider>
  );
}

function Canvas(props: CanvasProps) {
  const { graph, revision, expanded, loadingIds, marks, selectedId, focusId, onSelect, onToggle } =
    props;
  const [laid, setLaid] = useState<{ nodes: NodeCardNode[]; edges: Edge[]; rev: number } | null>(
    null,
  );
  const [error, setError] = useState<string | null>(null);
  const flow = useReactFlow();

  const shown = useMemo(() => visibleNodes(graph, expanded), [graph, revision, expanded]);
  const wires = useMemo(
    () => visibleEdges(graph, new Set(shown.map((v) => v.node.id))),
    [graph, shown],
  );

  useEffect(() => {
    let live = true;
    layoutGraph(shown, wires).then(
      (boxes) => {
        if (!live) return;
        const nodes: NodeCardNode[] = shown.map((v) => {
          const box = boxes.get(v.node.id) ?? { x: 0, y: 0, width: 240, height: 80 };
          return {
            id: v.node.id,
            type: 'card',
            position: { x: box.x, y: box.y },
            parentId: v.parentId ?? undefined,
            style: { width: box.width, height: box.height },
            draggable: false,
            connectable: false,
            ariaLabel: `${v.node.kind ?? 'node'} ${v.node.data.name}`,
            data: { node: v.node, open: v.open, loading: false, marks: [], note: null, onToggle },
          };
        });
        const edges: Edge[] = wires.map((e) => ({
          id: e.id,
          source: graph.portOwner.get(e.source_handle as string) as string,
          target: graph.portOwner.get(e.target_handle as string) as string,
          sourceHandle: e.source_handle,
          targetHandle: e.target_handle,
          markerEnd: { type: MarkerType.ArrowClosed },
        }));
        setLaid((prev) => ({ nodes, edges, rev: (prev?.rev ?? 0) + 1 }));
        setError(null);
      },
      (e: Error) => live && setError(`layout failed: ${e.message}`),
    );
    return () => {
      live = false;
    };
  }, [shown, wires, graph, onToggle]);

  // overlay marks, selection and loading state are applied without a new layout
  const nodes = useMemo(
    () =>
      (laid?.nodes ?? []).map((n) => {
        const m = marks.nodes.get(n.id);
        return {
          ...n,
          selected: n.id === selectedId,
          data: {
            ...n.data,
            loading: loadingIds.has(n.id),
            marks: m ? [...m.marks] : [],
            note: m && m.notes.length > 0 ? m.notes.join('; ') : null,
          },
        };
      }),
    [laid, marks, selectedId, loadingIds],
  );
  const edges = useMemo(
    () =>
      (laid?.edges ?? []).map((e) => {
        const m = marks.edges.get(e.id);
        return m ? { ...e, className: [...m].join(' ') } : e;
      }),
    [laid, marks],
  );

  useEffect(() => {
    // every new layout (first open, a boundary opened or closed) is fitted to the canvas
    if (laid && !focusId) window.requestAnimationFrame(() => void flow.fitView({ padding: 0.1 }));
  }, [laid, flow, focusId]);
  useEffect(() => {
    if (!focusId || !laid) return;
    if (laid.nodes.some((n) => n.id === focusId))
      void flow.fitView({ nodes: [{ id: focusId }], padding: 0.6, maxZoom: 1.2 });
  }, [focusId, laid, flow]);

  return (
    <div
      className="canvas"
      data-testid="canvas"
      data-ready={laid ? 'true' : 'false'}
      data-layout-rev={laid?.rev ?? 0}
    >
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={NODE_TYPES}
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable
        onNodeClick={(_e, node) => onSelect(node.id)}
        onPaneClick={() => onSelect(null)}
        onNodesChange={(changes) => {
          // keyboard selection (Enter on a focused node) arrives as a select change
          const picked = changes.find((c) => c.type === 'select' && c.selected);
          if (picked && picked.type === 'select' && picked.id !== selectedId) onSelect(picked.id);
        }}
        minZoom={0.05}
        proOptions={{ hideAttribution: true }}
      >
        <Background />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
}
