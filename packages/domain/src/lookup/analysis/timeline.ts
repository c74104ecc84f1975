/** The timeline: dated events of an answer, oldest first. */
import type { MergedProfile } from '../profile-types.ts';
import { yearOf } from './normalize.ts';
import type { TimelineEvent } from './types.ts';

export function sortTimeline(events: TimelineEvent[]): TimelineEvent[] {
  const seen = new Set<string>();
  return events
    .filter((e) => {
      const id = `${e.date}|${e.event}|${e.source}`;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    })
    .sort((a, b) => compare(a.date, b.date) || compare(a.event, b.event) || compare(a.source, b.source))
    .slice(0, 200);
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function educationEvents(profile: MergedProfile): TimelineEvent[] {
  const events: TimelineEvent[] = [];
  for (const q of profile.qualifications) {
    const what = [q.degree, q.field].filter(Boolean).join(', ');
    const where = q.school ? ` at ${q.school}` : '';
    const subject = what ? `${what}${where}` : `studies${where}`;
    const start = q.startYear !== undefined ? yearOf(q.startYear) : undefined;
    const end = q.endYear !== undefined ? yearOf(q.endYear) : undefined;
    if (start) events.push({ date: start, event: `Started ${subject}`, source: q.source });
    if (end) events.push({ date: end, event: `Finished ${subject}`, source: q.source });
  }
  for (const x of profile.experience) {
    const role = x.title && x.company ? `${x.title} at ${x.company}` : (x.title ?? x.company ?? '');
    const start = x.startYear !== undefined ? yearOf(x.startYear) : undefined;
    const end = x.endYear !== undefined ? yearOf(x.endYear) : undefined;
    if (start) events.push({ date: start, event: `Started as ${role}`, source: x.source });
    if (end) events.push({ date: end, event: `Left ${role}`, source: x.source });
  }
  return events;
}
