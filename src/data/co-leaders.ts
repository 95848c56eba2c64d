/**
 * Second Leaders by a Leader's own text: some Leaders may join a Bodyguard unit that already has a Leader of
 * the datasheets or keywords their leader text names (the Warlock beside an Autarch or Farseer, the Visarch
 * beside Yvraine, Eldrad Ulthran beside a Warlock). The importer reads the names from the export's leader
 * text (`parseJoinsBeside`, kept as the datasheet's `joinsBeside`); `joinsBeside` below tells whether two
 * Leaders may lead one unit together. The BODYGUARD rule (two Leaders for 20 Kroot Carnivores) is
 * ./bodyguard.ts, which asks this module for the rest.
 */
import type { Datasheet } from './datasheet.ts';
import { keyVariants } from './text.ts';

/**
 * The Leaders named by a leader text as those the unit may already have ("even if one Autarch or Farseer model
 * has already been attached to it"), as written; null when the text names none. "one other CHARACTER model"
 * and "one other Leader unit" name any Leader (CHARACTER, LEADER).
 */
export function parseJoinsBeside(text: string): string[] | null {
  const m = /even if (?:one or more |one |an? )?(?:other )?(.+?)(?: (?:models?|units?))? (?:has|have) (?:already )?been attached/i.exec(text);
  if (!m) return null;
  const names = m[1].split(/,\s*|\s+or\s+/).map((s) => s.trim()).filter((s) => s.length > 0);
  return names.length > 0 ? names : null;
}

/** Does the Leader datasheet `leader` answer to `name`: its name (singular or plural), one of its keywords, or any Leader for LEADER/CHARACTER? */
function answersTo(leader: Datasheet, name: string): boolean {
  const variants = keyVariants(name);
  if (variants.some((k) => keyVariants(leader.name).includes(k))) return true;
  if (variants.includes('leader')) return leader.coreAbilities.some((a) => a.name === 'Leader');
  return leader.keywords.some((kw) => keyVariants(kw).some((k) => variants.includes(k)));
}

/**
 * May the two Leaders lead one Bodyguard unit together by either one's leader text? Either order: the
 * Declare Battle Formations step declares the attachments together, so "already attached" does not order them.
 */
export function joinsBeside(a: Datasheet, b: Datasheet): boolean {
  return a.id !== b.id && ((a.joinsBeside ?? []).some((n) => answersTo(b, n)) || (b.joinsBeside ?? []).some((n) => answersTo(a, n)));
}
