/** Gaps (SEEDS §3.5): topics mentioned often but barely linked, listed as "worth exploring" in the briefing. */

import { detectGaps } from '../../script/gap-detection.js';
import { topicStatsOf } from '../topic-stats.js';
import type { Phase } from './phase.js';

/** Records tonight's gaps in the log (the `gaps` reader computes the same list live). */
export const gapsPhase: Phase = async (night) => {
  const gaps = detectGaps(await topicStatsOf(night.store, night.space));
  return { proposals: gaps, apply: async () => ({ delta: { gaps } }) };
};
