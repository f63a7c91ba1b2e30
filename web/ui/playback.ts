// The one playback clock of every page that replays a run: the workbench (whole records, 8 a
// second times its speed), the compare page (virtual cycles, every column at once) and a
// lesson's run player (stepped, scrubbed and jumped, never played). It keeps whether the replay plays
// and how fast, and moves it: by the animation-frame clock while playing, to a position when
// scrubbed or stepped. What a position means and how it is drawn stays with the page (show()),
// so the data still flows one way: the player replays, the page draws, this only says where.

export interface PlaybackOptions {
  /** where the replay stands now */
  position(): number;
  /** its last position: playing stops there */
  end(): number;
  /** moves the replay to `pos` (already within 0..end) and draws it */
  show(pos: number): void;
  /** positions per second at speed 1; a replay that is only stepped and scrubbed has none */
  rate?: number;
  /** the speeds offered, as multipliers of rate (default: 1x only) */
  speeds?: readonly number[];
  /** the index in speeds to start at */
  speedIndex?: number;
  /** whole positions only (records): the fraction of one a frame earns carries to the next */
  whole?: boolean;
  /** after every change between playing and paused (the play button's text, live regions) */
  onPlayingChange?(playing: boolean): void;
  /** where the previous (-1) or next (1) event of a kind is (the page says what a kind is: the
   * workbench's and the lesson player's "jump to"), or undefined when there is none */
  find?(dir: 1 | -1, kind: string): number | undefined;
}

export interface Playback {
  readonly playing: boolean;
  /** the current speed, a multiplier of rate */
  readonly speed: number;
  readonly speedIndex: number;
  /** plays from here, or from the start when the replay stands at its end */
  play(): void;
  pause(): void;
  toggle(): void;
  /** scrubs to `pos`, kept within 0..end */
  seek(pos: number): void;
  /** steps by n positions (negative: back) */
  stepBy(n: number): void;
  /** the speed at index i of speeds, kept within the list */
  setSpeed(i: number): void;
  /** to the previous / next event of `kind` (find()); false, and nothing moves, when none is left */
  jump(dir: 1 | -1, kind: string): boolean;
}

/** The longest frame the clock counts: a tab that was hidden resumes where it was, not ahead. */
const MAX_FRAME_MS = 250;

export function createPlayback(o: PlaybackOptions): Playback {
  const speeds = o.speeds ?? [1];
  let speedIndex = o.speedIndex ?? 0;
  let playing = false;
  /** bumped by every play(): a frame of an earlier play stops there */
  let run = 0;
  let carry = 0;
  let last = 0;

  const clamp = (pos: number) => Math.max(0, Math.min(o.end(), pos));
  const seek = (pos: number) => o.show(clamp(pos));

  const pause = () => {
    if (!playing) return;
    playing = false;
    o.onPlayingChange?.(false);
  };

  /** One animation frame of playing: the time since the last one, at the current speed. */
  const tick = (id: number, now: number) => {
    if (!playing || id !== run) return;
    const dt = Math.min(MAX_FRAME_MS, now - last);
    last = now;
    const by = (dt / 1000) * o.rate! * speeds[speedIndex]!;
    if (o.whole) {
      carry += by;
      const n = Math.floor(carry);
      if (n > 0) {
        carry -= n;
        seek(o.position() + n);
        if (o.position() >= o.end()) return pause();
      }
    } else {
      seek(o.position() + by);
      if (o.position() >= o.end()) return pause();
    }
    requestAnimationFrame((t) => tick(id, t));
  };

  const play = () => {
    if (playing || o.rate === undefined) return;
    playing = true;
    if (o.position() >= o.end()) seek(0);
    carry = 0;
    last = performance.now();
    const id = ++run;
    o.onPlayingChange?.(true);
    requestAnimationFrame((t) => tick(id, t));
  };

  return {
    get playing() {
      return playing;
    },
    get speed() {
      return speeds[speedIndex]!;
    },
    get speedIndex() {
      return speedIndex;
    },
    play,
    pause,
    toggle: () => (playing ? pause() : play()),
    seek,
    stepBy: (n) => seek(o.position() + n),
    setSpeed: (i) => {
      speedIndex = Math.max(0, Math.min(speeds.length - 1, i));
    },
    jump: (dir, kind) => {
      const to = o.find?.(dir, kind);
      if (to === undefined) return false;
      seek(to);
      return true;
    },
  };
}
