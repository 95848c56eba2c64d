/**
 * Side swapping: the same matchup with each army playing the other's side of the table.
 *
 * A seat (player index) owns the side: its deployment zone, its territory, Attacker or Defender. An army
 * owns everything else: its list, detachment, agent, formations. Swapping puts the player 2 army in seat
 * 0 on player 1's side and the player 1 army in seat 1 on player 2's side. It is the scenario that the
 * scenario file with its two players exchanged and their zones given would load as.
 */
import type { ResolvedPlayer, ResolvedScenario } from '../data/scenario-types.ts';

/** The fields of a player that belong to the seat (the side), not to the army. */
function side(p: ResolvedPlayer): Pick<ResolvedPlayer, 'zone' | 'role'> {
  const out: Pick<ResolvedPlayer, 'zone' | 'role'> = { zone: p.zone };
  if (p.role !== undefined) out.role = p.role;
  return out;
}

export function swapSides(sc: ResolvedScenario): ResolvedScenario {
  const [a, b] = sc.players;
  const seat0: ResolvedPlayer = { ...b, ...side(a) };
  const seat1: ResolvedPlayer = { ...a, ...side(b) };
  if (a.role === undefined) delete seat0.role;
  if (b.role === undefined) delete seat1.role;
  return { ...sc, players: [seat0, seat1] };
}

/** Seat of an army in a game (and army of a seat: the map is its own inverse). */
export function seatOf(army: 0 | 1, swapped: boolean): 0 | 1 {
  return (swapped ? 1 - army : army) as 0 | 1;
}
