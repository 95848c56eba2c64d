/** Base sizes as the export writes them: "32mm", "28.5mm", "60mm flying base", "120 x 92mm", "Use model". */
import type { BaseSize } from './datasheet.ts';
import { normaliseText } from './text.ts';

/** null when the text is not a size (e.g. "Use model", empty, or something unknown). */
export function parseBaseSize(text: string): BaseSize | null {
  const t = normaliseText(text).toLowerCase();
  const flying = /flying base/.test(t);
  const oval = /^(\d+(?:\.\d+)?)\s*(?:mm)?\s*x\s*(\d+(?:\.\d+)?)\s*mm\b/.exec(t);
  if (oval) {
    const a = Number(oval[1]);
    const b = Number(oval[2]);
    return { shape: 'oval', lengthMm: Math.max(a, b), widthMm: Math.min(a, b), ...(flying ? { flying: true } : {}) };
  }
  const round = /^(\d+(?:\.\d+)?)\s*mm\b/.exec(t);
  if (round) return { shape: 'round', diameterMm: Number(round[1]), ...(flying ? { flying: true } : {}) };
  return null;
}

/** "Use model" (or nothing at all): the model has no base and is measured by its hull. */
export function isHullOnly(text: string): boolean {
  const t = normaliseText(text).toLowerCase();
  return t === '' || t === 'use model' || t === 'use hull' || t === 'hull';
}
