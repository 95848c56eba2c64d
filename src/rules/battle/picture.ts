/**
 * A game state as a board picture for src/geometry/svg.ts: terrain, deployment zones, objectives and
 * every model on the battlefield, labelled by unit.
 */
import type { GameState } from '../../core/state.ts';
import type { BoardPicture } from '../../geometry/svg.ts';
import { boardOf, modelBody } from './world.ts';

export function pictureOfState(state: GameState, title?: string): BoardPicture {
  const models: BoardPicture['models'] = [];
  for (const id of state.unitOrder) {
    const u = state.units[id];
    if (u.location !== 'battlefield') continue;
    for (const m of u.models) {
      if (!m.alive || !m.pos) continue;
      models.push({ id: m.id, unitId: u.id, unitName: u.name, player: `Player ${u.player + 1}`, body: modelBody(state, m) });
    }
  }
  return {
    // the terrain as the geometry sees it now: closed hatchways are walls, open ones gaps
    board: { width: state.board.width, height: state.board.height, terrain: boardOf(state).terrain.map((t) => ({ ...t })) },
    title,
    deploymentZones: state.board.deploymentZones.map((z) => ({ player: `Player ${z.player + 1}`, polygon: z.polygon })),
    objectives: state.objectives.map((o) => ({ id: o.id, pos: o.pos })),
    models,
  };
}
