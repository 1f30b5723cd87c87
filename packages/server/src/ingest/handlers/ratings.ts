import { addDeviceStars, addToiletStars, insertRatingComments } from '../repo.ts';
import type { IngestHandler, IngestOut, StoredReport } from '../handler.ts';
import type { Queryable } from '../../db/index.ts';

/** Evaluation terminals: each rating becomes a comment (the /ws 'comments' channel). */
export const ratingComments: IngestHandler = {
  name: 'rating-comments',
  kinds: ['evaluate'],
  derive: ratingsToComments,
};

/**
 * An evaluation terminal's rating becomes a comment on the terminal, and the terminal's star
 * count and average follow. A terminal placed in a toilet (devices.toilet_id) rates that
 * toilet: the comment carries toilet_id and the toilet's star_sum/star_count grow in the
 * same transaction.
 */
async function ratingsToComments(tx: Queryable, stored: StoredReport[], out: IngestOut) {
  const ratings = stored.filter((s) => typeof s.data.star_level === 'number');
  if (!ratings.length) return;
  const flag = (s: StoredReport, k: string) => s.data[k] === 1;
  // The toilet is read from the row itself, so a placement committed before this batch counts.
  const inserted = await insertRatingComments(
    tx,
    ratings.map((s) => s.device_id),
    ratings.map((s) => s.data.star_level as number),
    ratings.map((s) => (typeof s.data.content === 'string' ? s.data.content : '')),
    ratings.map((s) => flag(s, 'badattitude')),
    ratings.map((s) => flag(s, 'inefficiency')),
    ratings.map((s) => flag(s, 'poorsanitary')),
    ratings.map((s) => flag(s, 'smelly')),
    ratings.map((s) => new Date(s.ts).toISOString()),
  );
  const per = new Map<number, { n: number; sum: number }>();
  for (const s of ratings) {
    const a = per.get(s.device_id) ?? { n: 0, sum: 0 };
    a.n++;
    a.sum += s.data.star_level as number;
    per.set(s.device_id, a);
  }
  await addDeviceStars(
    tx,
    [...per.keys()],
    [...per.values()].map((a) => a.n),
    [...per.values()].map((a) => a.sum),
  );
  const toilets = new Map<number, { n: number; sum: number }>();
  for (const c of inserted) {
    if (c.toilet_id === null) continue;
    const a = toilets.get(c.toilet_id) ?? { n: 0, sum: 0 };
    a.n++;
    a.sum += c.star_level;
    toilets.set(c.toilet_id, a);
  }
  if (toilets.size) {
    await addToiletStars(
      tx,
      [...toilets.keys()],
      [...toilets.values()].map((a) => a.n),
      [...toilets.values()].map((a) => a.sum),
    );
  }
  for (const c of inserted)
    out.comments.push({ id: Number(c.id), toilet_id: c.toilet_id, equipment_id: c.equipment_id });
}
