// Preloaded (node --import) into a bench's server: every HTTP request first spins SPIN_US µs of CPU on the main
// thread. With BENCH_AA=1 BENCH_SPIN_US=40, the observability bench prints what a known cost per request reads as
// on this machine: the calibration of its measure (a slower server's loopback client sleeps more, and waking it
// costs the server's writes more).
import http from 'node:http';
import { performance } from 'node:perf_hooks';

const micros = Number(process.env.SPIN_US);
if (micros > 0) {
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (event, ...args) {
    if (event === 'request') {
      const until = performance.now() + micros / 1000;
      while (performance.now() < until);
    }
    return emit.call(this, event, ...args);
  };
}
