import { useCallback, useRef, useState, type RefObject } from 'react';
import { evidencePlace, type Finding } from '../../contract/diagnosis';
import type { EvidenceArea } from '../charts/evidence-area';

// Which finding's evidence the time charts shade: the one a person clicked (pinned, and the charts
// scrolled into view), or for as long as the pointer rests on another finding, that one. Owned by
// the page, which holds both the "What happened" panel and the charts.

/** The charts' shade for a finding: its evidence's range, named by the rule and where it was read; null without a range (the whole run). */
export function evidenceArea(f: Finding): EvidenceArea | null {
  const range = f.evidence.range;
  // a range the axis cannot place (reversed, not finite) shades nothing rather than a wrong place
  if (range === undefined || !Number.isFinite(range.fromMs) || !Number.isFinite(range.toMs) || range.toMs < range.fromMs) return null;
  const { range: _drop, ...where } = f.evidence;
  const place = evidencePlace(where);
  return { label: place === 'the whole run' ? f.rule : `${f.rule}: ${place}`, fromSec: range.fromMs / 1000, toSec: range.toMs / 1000 };
}

export interface EvidenceHighlight {
  /** the shade the charts draw now */
  area: EvidenceArea | null;
  /** the finding clicked (its index in the panel's list), or null */
  pinned: number | null;
  /** a click: pins the finding's shade (again: unpins it) and brings the charts into view */
  pin(index: number, area: EvidenceArea): void;
  /** the pointer on a finding (null: off it) */
  preview(area: EvidenceArea | null): void;
  /** put on the block that holds the time charts: scrolled to on a pin */
  charts: RefObject<HTMLDivElement | null>;
}

/** The highlight of one run's page; forgotten when the run changes. */
export function useEvidenceHighlight(runId: number | null): EvidenceHighlight {
  const charts = useRef<HTMLDivElement | null>(null);
  const [pinned, setPinned] = useState<{ runId: number | null; index: number; area: EvidenceArea } | null>(null);
  const [hovered, setHovered] = useState<EvidenceArea | null>(null);
  const own = pinned !== null && pinned.runId === runId ? pinned : null;
  const pin = useCallback(
    (index: number, area: EvidenceArea) => {
      const again = own !== null && own.index === index;
      setPinned(again ? null : { runId, index, area });
      setHovered(null);
      if (!again) charts.current?.scrollIntoView({ block: 'start' });
    },
    [own, runId],
  );
  return { area: hovered ?? own?.area ?? null, pinned: own?.index ?? null, pin, preview: setHovered, charts };
}
