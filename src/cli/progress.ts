// Progress on stderr: a redrawn bar on a terminal, a plain line every tenth of the way otherwise.

export interface ProgressStream {
  isTTY?: boolean;
  write(text: string): boolean;
}

export interface Progress {
  update(phase: string, done: number, total: number): void;
  /** Ends a bar line left open. */
  finish(): void;
}

const WIDTH = 30;
const REDRAW_MS = 100;

function bar(phase: string, done: number, total: number): string {
  const share = total > 0 ? done / total : 1;
  const filled = Math.round(share * WIDTH);
  return `${phase.padEnd(9)} [${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${String(Math.floor(share * 100)).padStart(3)}% ${done}/${total}`;
}

export function createProgress(stream: ProgressStream): Progress {
  let phase = '';
  let open = false;
  let lastDraw = 0;
  let lastStep = -1;
  const finish = () => {
    if (open) stream.write('\n');
    open = false;
  };
  return {
    update(next, done, total) {
      if (next !== phase) {
        finish();
        phase = next;
        lastStep = -1;
        lastDraw = 0;
      }
      if (stream.isTTY) {
        const now = Date.now();
        if (done < total && now - lastDraw < REDRAW_MS) return;
        lastDraw = now;
        stream.write(`\r${bar(phase, done, total)}\x1b[K`);
        open = true;
        return;
      }
      const step = total > 0 ? Math.floor((done / total) * 10) : 10;
      if (step === lastStep) return;
      lastStep = step;
      stream.write(`trove: ${phase} ${done}/${total}\n`);
    },
    finish,
  };
}
