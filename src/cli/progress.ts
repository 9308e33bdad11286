import cliProgress from "cli-progress";
import type { ReplayProgress } from "../scenario/replay.ts";

/** Shows how far each chain's replay has come, on stderr. */
export interface ReplayDisplay {
  update(progress: ReplayProgress): void;
  /** Ends the display (before the banner is printed). */
  stop(): void;
}

/** A bar per chain on a terminal; a line per chain at each quarter when the output is a file or a pipe. */
export function replayDisplay(stream: NodeJS.WriteStream = process.stderr): ReplayDisplay {
  return stream.isTTY ? barsDisplay(stream) : linesDisplay(stream);
}

function barsDisplay(stream: NodeJS.WriteStream): ReplayDisplay {
  const bars = new cliProgress.MultiBar(
    {
      stream,
      format: "  replaying chain {chainId} {bar} {value}/{total} entries",
      hideCursor: true,
      clearOnComplete: false,
      autopadding: true,
    },
    cliProgress.Presets.shades_classic,
  );
  const byChain = new Map<number, cliProgress.SingleBar>();
  return {
    update({ chainId, done, total }) {
      let bar = byChain.get(chainId);
      if (!bar) byChain.set(chainId, (bar = bars.create(total, 0, { chainId })));
      bar.update(done, { chainId });
    },
    stop: () => bars.stop(),
  };
}

function linesDisplay(stream: NodeJS.WriteStream): ReplayDisplay {
  const shown = new Map<number, number>();
  return {
    update({ chainId, done, total }) {
      const quarter = Math.floor((4 * done) / total);
      if (quarter === 0 || quarter === (shown.get(chainId) ?? 0)) return;
      shown.set(chainId, quarter);
      stream.write(`  replaying chain ${chainId}: ${quarter * 25}% (${done}/${total} entries)\n`);
    },
    stop() {},
  };
}
