// Going to another page of the client without loading it: the address changes and the
// router (main.js, which registers itself here) draws the page. A module of its own so
// that pages can send the player elsewhere without importing the router that imports
// them (no import cycle).

let router = () => {};

/** Register the function that draws the page of the current address. */
export function setRouter(route) {
  router = route;
}

/** Go to ``path`` (pushed onto the browser's history) and draw its page. */
export function navigate(path) {
  history.pushState(null, "", path);
  router();
}
