/**
 * Picking versions of a branch or main: a slider from the first version to the head
 * that reopens the graph pinned at the chosen version (after a short pause, so a drag
 * or held arrow key reads one version, not each one passed), and the older side of a
 * diff between two versions.
 */
import { useEffect, useState } from 'react';

/** Wait this long after the last move before reading the chosen version. */
const SETTLE_MS = 350;

export function VersionSlider({
  label,
  version,
  head,
  min = 0,
  onPick,
}: {
  label: string;
  /** The version on screen. */
  version: number;
  head: number;
  min?: number;
  /** The version chosen; the head is passed as null (read the head, not a pinned copy). */
  onPick: (version: number | null) => void;
}) {
  const [value, setValue] = useState(version);
  useEffect(() => setValue(version), [version]);
  useEffect(() => {
    if (value === version) return;
    const timer = setTimeout(() => onPick(value >= head ? null : value), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [value, version, head, onPick]);
  const text = value >= head ? `version ${value} (head)` : `version ${value} of ${head}`;
  return (
    <div className="version-slider">
      <label htmlFor="version-slider">{label}</label>
      <input
        id="version-slider"
        type="range"
        min={min}
        max={head}
        step={1}
        value={value}
        aria-valuetext={text}
        disabled={head <= min}
        onChange={(e) => setValue(Number(e.target.value))}
      />
      <output htmlFor="version-slider" aria-live="polite" data-testid="version-shown">
        {text}
      </output>
    </div>
  );
}

export function FromVersionPicker({
  from,
  to,
  onPick,
}: {
  from: number;
  to: number;
  onPick: (version: number) => void;
}) {
  const choices = Array.from({ length: to + 1 }, (_, i) => to - i);
  return (
    <div className="version-from">
      <label htmlFor="from-version">Compare from version</label>
      <select id="from-version" value={from} onChange={(e) => onPick(Number(e.target.value))}>
        {choices.map((v) => (
          <option key={v} value={v}>
            {v}
          </option>
        ))}
      </select>
    </div>
  );
}
