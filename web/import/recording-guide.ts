// The recording guide shown next to the importer: the exact commands of docs/import.md
// ("Recording"), which were run as written on this project's machine.

export const GUIDE_PRIVILEGES =
  'Root does everything. Without root, perf needs kernel.perf_event_paranoid = -1 ' +
  '(sudo sysctl kernel.perf_event_paranoid=-1; the default is 2) or CAP_PERFMON to record every CPU (-a), ' +
  'and read access to /sys/kernel/tracing for the event formats. tracefs recording needs write access to ' +
  '/sys/kernel/tracing (root, or a tracing group some distributions set up). One busy second is ~100,000 lines.';

export const GUIDE_BUILD = 'gcc -O2 bench/kernel_page_fault1.c -o /tmp/pf1';

export const GUIDE_PERF = `perf record -m 4096 -e kmem:mm_page_alloc -e kmem:mm_page_free \\
  -e kmem:mm_page_free_batched -e kmem:mm_page_pcpu_drain \\
  -e kmem:mm_page_alloc_zone_locked -e kmem:mm_page_alloc_extfrag -a -- \\
  sh -c '/tmp/pf1 --tasks 1 --samples 1 --warmup 0 --interval 0.1 --mb 16; sleep 4'
perf script > trace.txt`;

export const GUIDE_TRACEFS = `cd /sys/kernel/tracing
EV='mm_page_alloc mm_page_free mm_page_free_batched mm_page_pcpu_drain
    mm_page_alloc_zone_locked mm_page_alloc_extfrag'
echo > trace; echo 8192 > buffer_size_kb
for e in $EV; do echo 1 > events/kmem/$e/enable; done
/tmp/pf1 --tasks 1 --samples 1 --warmup 0 --interval 0.1 --mb 16; sleep 4
for e in $EV; do echo 0 > events/kmem/$e/enable; done
cat trace > ~/trace.txt; echo > trace`;

export const GUIDE_NOTES =
  'perf record writes perf.data (binary): import the text of perf script, not perf.data. ' +
  '-m 4096 gives perf bigger buffers (otherwise it may report lost samples). The sleep 4 lets the ' +
  'vmstat worker drain the per-cpu lists, so mm_page_pcpu_drain shows up. tracefs keeps the newest ' +
  'events when its ring buffer fills: put buffer_size_kb back afterwards (1410 by default), or stream ' +
  'with cat trace_pipe > trace.txt.';
