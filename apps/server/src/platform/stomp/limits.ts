/**
 * What one client may hold and do (docs/live-channel.md, Transport): a slow or hostile client is
 * closed with an ERROR rather than let grow the server's memory or take the others' time.
 */

/** Frames read but not yet handled beyond which the socket stops being read. */
export const MAX_QUEUED_FRAMES = 64;
/** Subscriptions per connection: each is a map entry, and a client must not make a million. */
export const MAX_SUBSCRIPTIONS = 100;
/**
 * The frame rate a client is held to (docs/live-channel.md, Transport): far above what an agent or
 * a console sends (a few frames a minute; a console's commands as fast as a person clicks), and
 * above the benchmarks' busiest publisher (about 550 a second), so only a flood meets it.
 */
export const FRAME_BURST = 2_000;
export const FRAMES_PER_SECOND = 1_000;
/** Frames of one client handled in a row before the event loop runs again (the others' turn). */
export const FRAMES_PER_TURN = 16;
/** A frame begun must be whole within this (ms) by default, however its bytes trickle in. */
export const FRAME_TIMEOUT_MS = 10_000;

export const FLOODING = 'Too many frames: the connection sent faster than the server allows.';
export const FRAME_NOT_COMPLETED = 'A frame was begun and not finished in time.';
export const TOO_MANY_SUBSCRIPTIONS = `At most ${MAX_SUBSCRIPTIONS} subscriptions per connection.`;
