import cliProgress from "cli-progress";
import type { ReplayProgress } from "../scenario/replay.ts";

/**
 * Shows how far each chain's replay has come, on stderr, until `stop` (before the banner is printed): a bar per chain on
 * a terminal; a line per chain at each quarter when the output is a file or a pipe.
 */
export function replayDisplay(stream: NodeJS.WriteStream = process.stderr) {
  if (!stream.isTTY) {
    const shown = new Map<number, number>();
    return {
      update({ chainId, done, total }: ReplayProgress) {
        const quarter = Math.floor((4 * done) / total);
        if (quarter === 0 || quarter === (shown.get(chainId) ?? 0)) return;
        shown.set(chainId, quarter);
        stream.write(`  replaying chain ${chainId}: ${quarter * 25}% (${done}/${total} entries)\n`);
      },
      stop: () => {},
    };
  }
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
    update({ chainId, done, total }: ReplayProgress) {
      let bar = byChain.get(chainId);
      if (!bar) byChain.set(chainId, (bar = bars.create(total, 0, { chainId })));
      bar.update(done, { chainId });
    },
    stop: () => bars.stop(),
  };
}
