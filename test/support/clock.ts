/** Real time that a test can move on (`advance`), for the app's `now`: caches' expiry is tested with it. */
export function movableClock() {
  const clock = {
    offsetMs: 0,
    now: () => new Date(Date.now() + clock.offsetMs),
    advance: (ms: number) => void (clock.offsetMs += ms),
  };
  return clock;
}
