// Small DOM helpers: build elements declaratively, announce to screen readers, toasts.

/**
 * h("button", {class: "x", onclick: fn, "aria-label": "…"}, "text", child, …)
 * Attributes starting with "on" become listeners; `false`/`null` attributes are left out.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "dataset") {
      Object.assign(el.dataset, value);
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, String(value));
    }
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Replace the children of `el`, keeping the keyboard focus on the element with the
 * same data-key when it is re-created (tables re-render on every update). */
export function replaceKeepingFocus(el, ...children) {
  const active = /** @type {HTMLElement | null} */ (document.activeElement);
  const key = active && el.contains(active) ? active.dataset.key : null;
  el.replaceChildren(...children.flat(Infinity).filter(Boolean));
  if (key) {
    const again = el.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again && !again.disabled) again.focus();
  }
}

/** Say something to screen-reader users (polite live region). */
export function announce(text) {
  const region = document.getElementById("announce");
  if (!region) return;
  region.textContent = "";
  // A separate frame makes repeated messages be read again.
  requestAnimationFrame(() => {
    region.textContent = text;
  });
}

let toastTimer = null;

/** Show a message on screen (and to screen readers): tone "error" | "info". */
export function toast(text, tone = "error", ms = 6000) {
  const box = document.getElementById("toast");
  if (!box) return;
  box.textContent = text;
  box.className = `toast ${tone}`;
  box.hidden = false;
  clearTimeout(toastTimer);
  if (ms) {
    toastTimer = setTimeout(() => {
      box.hidden = true;
    }, ms);
  }
}

export function hideToast() {
  const box = document.getElementById("toast");
  if (box) box.hidden = true;
}

/** A modal dialog (native <dialog>) with a title, body and a close button. */
export function dialog(title, body, closeLabel, onClose) {
  const closeButton = h("button", { type: "button", class: "primary" }, closeLabel);
  const box = h(
    "dialog",
    { class: "modal", "aria-labelledby": "dialog-title" },
    h("h2", { id: "dialog-title" }, title),
    body,
    h("div", { class: "actions" }, closeButton),
  );
  closeButton.addEventListener("click", () => box.close());
  box.addEventListener("close", () => {
    box.remove();
    if (onClose) onClose();
  });
  document.body.append(box);
  box.showModal();
  closeButton.focus();
  return box;
}

/** Replace the children of `el` with `children` (nested arrays and nulls allowed). */
export function fill(el, ...children) {
  el.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}

/** Append `children` to `el`, leaving out nulls (Element.append would write "null"). */
export function append(el, ...children) {
  el.append(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}
