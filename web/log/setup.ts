// Where a zone's set-up ends in a log: the records before the first thing any CPU does
// (ZONE_INIT, the pageblocks' migratetypes and memblock's free blocks, all with cpu 0xffff or
// path ZONE_INIT). A lesson that starts "at the start" shows the zone as set-up left it, not
// the empty zone before record 0.
import { CPU_NONE, type EventLog } from './events';

/** BLAB_PATH_ZONE_INIT */
const PATH_ZONE_INIT = 1;

/** The step just after the last set-up record (0 for a log with none). */
export function afterSetup(log: EventLog): number {
  let i = 0;
  while (i < log.length && (log.cpu[i] === CPU_NONE || log.path[i] === PATH_ZONE_INIT)) i++;
  return i;
}
