// Cards that move: a card appears where it lands and slides there from where it came
// from, in at most 250 ms, with the Web Animations API. Nothing waits for an animation
// (the new element is in place and clickable at once), and nothing moves when the
// system asks for reduced motion. Generic: any element, any starting rectangle.
//   const from = rectOf(sourceElement);    // before the table is redrawn
//   …redraw…
//   slideFrom(newElement, from);           // after: the element slides in from `from`

export const MOTION_MS = 200;

export function reducedMotion() {
  return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Where an element is on screen now (null for none). */
export function rectOf(el) {
  return el ? el.getBoundingClientRect() : null;
}

/** Slide `el` from rectangle `from` to where it is; `delay` ms staggers a group (the
 * whole animation, delay included, ends within MOTION_MS + 40 ms = 240 ms). */
export function slideFrom(el, from, delay = 0) {
  if (!el || !from || !el.animate || reducedMotion()) return;
  const to = el.getBoundingClientRect();
  if (!to.width || !from.width) return;
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  if (Math.abs(dx) < 2 && Math.abs(dy) < 2) return;
  const wait = Math.min(delay, 80);
  const animation = el.animate(
    [
      { transform: `translate(${dx}px, ${dy}px) scale(0.85)`, opacity: 0.4 },
      { transform: "none", opacity: 1 },
    ],
    { duration: MOTION_MS - wait / 2, delay: wait, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" },
  );
  // For tests: how many cards moved, and the longest animation (ms, delay included).
  window.cardtableMotions = (window.cardtableMotions || 0) + 1;
  const ends = animation.effect.getComputedTiming().endTime;
  window.cardtableLongestMotion = Math.max(window.cardtableLongestMotion || 0, ends);
}
