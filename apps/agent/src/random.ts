// Seeded randomness for simulated activity and history: the agent's workday planner and the
// server's demo seed draw from the same generator, so a day planned twice is the same day.

/** mulberry32: a small seeded generator, so that a simulated day or the demo's history is the same every time it is drawn. */
export function seededRandom(seed: number): () => number {
  // Small seeds (1, 2, 3) start mulberry32 alike: their first numbers are spread apart first.
  let state = Math.imul(seed ^ 0x5bd1e995, 0x9e3779b1) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A count of events with mean `mean` (Knuth's method: means here are small). */
export function poisson(mean: number, random: () => number) {
  const limit = Math.exp(-mean);
  let count = 0;
  for (let product = random(); product > limit; product *= random()) count += 1;
  return count;
}

/** About normal, mean 0 and deviation 1 (twelve uniforms). */
export function gaussian(random: () => number) {
  let sum = -6;
  for (let i = 0; i < 12; i += 1) sum += random();
  return sum;
}

/** A version-4 UUID drawn from the generator: the id a real agent would have made at random. */
export function uuid(random: () => number) {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16));
  hex[12] = '4';
  hex[16] = (8 + Math.floor(random() * 4)).toString(16);
  const text = hex.join('');
  return `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20)}`;
}
