// Drag a card to where it goes, with a mouse, a pen or a finger (Pointer Events; no
// library, no HTML5 drag and drop, which touch screens do not have). A drag only says
// *where*: the board's drop callback makes the move through the same methods a click or
// a key uses, so a drag can do nothing a click cannot.
//
//   draggable(cardElement, payload, (where, payload) => …);  // a card that may be dragged
//   h("div", { "data-drop": "lobby" }, …);                    // a place it may be dropped
//
// Tables redraw on every update (a race many times a second), so nothing here holds on
// to the elements: the pointer is followed on the window, a copy of the card (the
// "ghost") follows it, and the place under the pointer is looked up when it is released.
// A press that moves less than DRAG_PX stays a click; after a drag the click the browser
// sends on release is swallowed.

/** How far (CSS px) a pressed pointer moves before the press becomes a drag. */
export const DRAG_PX = 6;

/**
 * @typedef {object} Drag  the drag under way
 * @property {any} payload  what the board said the card is
 * @property {(where: string, payload: any) => void} drop  the board's callback
 * @property {number} id  the pointer's id
 * @property {number} x  where it was pressed (client px)
 * @property {number} y
 * @property {HTMLElement | null} ghost  the copy that follows the pointer, once lifted
 * @property {number} dx  the pointer's place on the card (px from its top left)
 * @property {number} dy
 * @property {HTMLElement} source  the element pressed
 * @property {HTMLElement | null} over  the drop place under the pointer
 */
/** @type {Drag | null} */
let active = null;

/** Let `el` be dragged; `drop(where, payload)` is called when it is released over an
 * element with `data-drop="where"` (or one inside it).
 * @param {HTMLElement} el
 * @param {any} payload
 * @param {(where: string, payload: any) => void} drop
 */
export function draggable(el, payload, drop) {
  el.classList.add("draggable");
  el.addEventListener("pointerdown", (event) => {
    if (active || !event.isPrimary || event.button !== 0) return;
    active = { payload, drop, id: event.pointerId, x: event.clientX, y: event.clientY, ghost: null, dx: 0, dy: 0, source: el, over: null };
    window.addEventListener("pointermove", onMove);
    window.addEventListener("pointerup", onUp);
    window.addEventListener("pointercancel", onCancel);
  });
}

/** The drop place under a point (the ghost lets the pointer through), or null.
 * @param {number} x
 * @param {number} y
 * @returns {HTMLElement | null}
 */
function placeAt(x, y) {
  const el = document.elementFromPoint(x, y);
  return el ? /** @type {HTMLElement | null} */ (el.closest("[data-drop]")) : null;
}

/** A copy of the pressed card that follows the pointer, above everything.
 * @param {Drag} drag
 */
function lift(drag) {
  // The card itself follows the pointer, not the button around it (a Spy pile's source).
  const shown = /** @type {HTMLElement} */ (drag.source.querySelector(".card.face") || drag.source);
  const rect = shown.getBoundingClientRect();
  const ghost = /** @type {HTMLElement} */ (shown.cloneNode(true));
  // A picture only: no id, data hook, role or name that a page query could mistake for the card.
  for (const attr of [...ghost.attributes]) {
    if (attr.name !== "class") ghost.removeAttribute(attr.name);
  }
  ghost.classList.add("dragghost");
  ghost.setAttribute("aria-hidden", "true");
  Object.assign(ghost.style, { width: `${rect.width}px`, height: `${rect.height}px`, left: "0px", top: "0px" });
  ghost.style.setProperty("--card-w", `${rect.width}px`); // its index as large as the card's
  document.body.append(ghost);
  drag.ghost = ghost;
  drag.dx = drag.x - rect.left;
  drag.dy = drag.y - rect.top;
  drag.source.classList.add("dragging");
}

/** @param {PointerEvent} event */
function onMove(event) {
  const drag = active;
  if (!drag || event.pointerId !== drag.id) return;
  if (!drag.ghost) {
    if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < DRAG_PX) return;
    lift(drag);
  }
  event.preventDefault();
  drag.ghost.style.transform = `translate(${event.clientX - drag.dx}px, ${event.clientY - drag.dy}px)`;
  const over = placeAt(event.clientX, event.clientY);
  if (over !== drag.over) {
    if (drag.over) drag.over.classList.remove("droptarget");
    if (over) over.classList.add("droptarget");
    drag.over = over;
  }
}

/** @param {PointerEvent} event */
function onUp(event) {
  const drag = active;
  if (!drag || event.pointerId !== drag.id) return;
  const dragged = Boolean(drag.ghost);
  const place = dragged ? placeAt(event.clientX, event.clientY) : null;
  end();
  if (!dragged) return; // a click: the element's click listener does it
  swallowClick();
  if (place) drag.drop(place.dataset.drop, drag.payload);
}

/** @param {PointerEvent} event */
function onCancel(event) {
  if (active && event.pointerId === active.id) end();
}

/** The drag is over: listeners, the ghost and the marks go. */
function end() {
  const drag = active;
  active = null;
  window.removeEventListener("pointermove", onMove);
  window.removeEventListener("pointerup", onUp);
  window.removeEventListener("pointercancel", onCancel);
  if (!drag) return;
  if (drag.ghost) drag.ghost.remove();
  if (drag.over) drag.over.classList.remove("droptarget");
  drag.source.classList.remove("dragging");
}

/** The click a browser sends after a drag's release is not a click on a card. */
function swallowClick() {
  /** @param {Event} event */
  const stop = (event) => {
    event.stopPropagation();
    event.preventDefault();
  };
  window.addEventListener("click", stop, { capture: true, once: true });
  setTimeout(() => window.removeEventListener("click", stop, { capture: true }), 0);
}
