/**
 * Who a TRANSPORT may carry and the room each model takes, read from its datasheet's `transport` fields:
 * one reading for the scenario loader (a starting load) and the game (embarking mid-battle).
 */
import type { Datasheet } from './datasheet.ts';
import { lookupKey } from './text.ts';

export type TransportCapacity = NonNullable<Datasheet['transport']>;

/** Is the datasheet named among the units the transport carries ("models from the following units": the Ynnari Venom)? */
export function namedByTransport(cap: TransportCapacity, name: string): boolean {
  return (cap.units ?? []).some((n) => lookupKey(n) === lookupKey(name));
}

/**
 * Why the transport may not carry models that are not among its named units and have the keywords `has` says,
 * or null when it may: the transport's keywords are needed and its excluded ones barred, the
 * `excludedExceptions` exempting from the last excluded keyword only (a Wave Serpent carries no YNNARI models,
 * ASURYANI ones excepted).
 */
export function transportRefusal(cap: TransportCapacity, has: (keyword: string) => boolean): string | null {
  if (cap.units?.length && !cap.keywords.length) return `only ${cap.units.join(', ')} may embark`;
  // the importer could not read who it carries (it reported the text): nobody rather than anybody
  if (cap.unparsed && !cap.keywords.length && !cap.units?.length) return 'the data\'s words for who it carries were not understood (the importer reports them)';
  const missing = cap.keywords.filter((k) => !has(k));
  if (missing.length) return `it lacks the keyword${missing.length > 1 ? 's' : ''} ${missing.join(', ')} (the transport takes ${cap.keywords.join(' ')} models)`;
  const ex = cap.excludedKeywords;
  const bad = ex.filter((k, i) => has(k) && !(i === ex.length - 1 && (cap.excludedExceptions ?? []).some((e) => has(e))));
  if (bad.length) return `the transport cannot carry ${bad.join(', ')} models`;
  return null;
}

/** The room one model with the keywords `has` says takes: one, or what the transport names ("each WRAITH CONSTRUCT model takes the space of 2 models"). */
export function transportSpace(cap: TransportCapacity, has: (keyword: string) => boolean): number {
  return cap.modelSpace?.find((s) => has(s.keyword))?.space ?? 1;
}
