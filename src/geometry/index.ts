/**
 * Battlefield geometry: pure functions on plain data (bases, distances, ranges, terrain, visibility,
 * movement planning, pictures). See each module's header for the rules it implements.
 */
export * from './types.ts';
export { baseFromSize, roundBase, rotateBase, baseArea, baseOutline } from './bases.ts';
export {
  bodyShape,
  horizontalDistance,
  verticalDistance,
  distance,
  isWithin,
  isWithinHV,
  basesOverlap,
  modelsOverlap,
  inBaseContact,
  horizontalDistanceToPoint,
  farthestHorizontalDistanceToPoint,
  isWithinOfPoint,
  isWhollyWithinOfPoint,
  isWhollyWithinOfBody,
  horizontalDistanceToPolygon,
  isWithinOfPolygon,
  overlapsPolygon,
  touchesPolygon,
  isWhollyWithinPolygon,
  farthestDistanceFromEdge,
  isWhollyWithinOfEdge,
  isOnBoard,
  BOARD_EDGES,
  type BoardEdge,
} from './distance.ts';
export * from './ranges.ts';
export {
  pointInPolygon,
  polygonArea,
  polygonSignedArea,
  polygonCentroid,
  polygonAabb,
  rectanglePolygon,
  segmentsIntersect,
  segmentIntersectionParam,
  distanceToPolygon,
  distanceToPolygonOutline,
  circleIntersectsPolygon,
  circleWhollyInPolygon,
  segmentCrossesPolygon,
  type Aabb,
} from './polygon.ts';
export {
  sightLines,
  lineOfSight,
  isVisible,
  isFullyVisible,
  unitVisible,
  visibleTargets,
  benefitOfCover,
  coverReason,
  touchesTerrain,
  whollyWithinTerrain,
  type SightLine,
  type LineOfSight,
  type CoverReason,
} from './visibility.ts';
export {
  planMove,
  validatePlacement,
  type MoveMode,
  type MoveRequest,
  type PlanModel,
  type World,
  type WorldModel,
  type PlanResult,
  type PlannedMove,
  type PlanFailure,
  type PlacementCheck,
  type Violation,
  type ViolationRule,
} from './planner.ts';
export { deploymentFromJson, deploymentsFromJson, type DeploymentMap, type DeploymentZone, type Territory } from './deployments.ts';
export { renderBoardSvg, xmlEscape, type BoardPicture, type PictureModel } from './svg.ts';
