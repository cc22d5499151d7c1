// What the client adds to the browser's globals, and browser features the TypeScript
// library does not list yet: for the client's type check only (`make jscheck`).

export {};

declare global {
  interface Window {
    /** Every sound the table played, by name (sound.js; tests read it). */
    cardtableSounds: string[];
    /** How many cards moved on screen (motion.js; tests read it). */
    cardtableMotions: number;
    /** The longest card motion so far, in ms with its delay (motion.js). */
    cardtableLongestMotion: number;
    /** The live table connection of the page (table.js; tests read it). */
    cardtableConnection: unknown;
    /** Safari's older name of AudioContext. */
    webkitAudioContext?: typeof AudioContext;
  }

  interface Navigator {
    /** The Keyboard API where the browser offers it (Chromium): the player's layout. */
    keyboard?: { getLayoutMap(): Promise<Map<string, string>> };
  }
}
