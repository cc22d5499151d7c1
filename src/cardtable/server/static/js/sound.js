// Sounds of the table, made in the browser with WebAudio (nothing is fetched):
//   playSound("turn" | "card" | "capture" | "call" | "low")
//   soundSwitch()  -> a button that mutes or unmutes every sound; the choice is kept in
//                     localStorage ("cardtable.sound" = "off" | "on").
// Browsers let a page make sound only after the person has interacted with it; before
// that, sounds are silently skipped. Every sound played is also appended to
// `window.cardtableSounds` (names only), so tests can see what was heard.

import { h } from "./dom.js";
import { t } from "./i18n.js";

const KEY = "cardtable.sound";

// Each sound: notes of [frequency Hz, start s, length s], a wave shape and a volume.
const SOUNDS = {
  turn: { wave: "sine", gain: 0.18, notes: [[523, 0, 0.12], [784, 0.1, 0.16]] },
  card: { wave: "triangle", gain: 0.2, notes: [[220, 0, 0.06]] },
  capture: { wave: "sine", gain: 0.16, notes: [[392, 0, 0.09], [494, 0.08, 0.09], [659, 0.16, 0.16]] },
  call: { wave: "square", gain: 0.08, notes: [[659, 0, 0.14], [523, 0.14, 0.14], [784, 0.28, 0.24]] },
  low: { wave: "square", gain: 0.07, notes: [[880, 0, 0.08], [880, 0.16, 0.08]] },
};

let context = null;
window.cardtableSounds = window.cardtableSounds || [];

export function soundOn() {
  return localStorage.getItem(KEY) !== "off";
}

export function setSoundOn(on) {
  localStorage.setItem(KEY, on ? "on" : "off");
}

function audio() {
  if (context) return context;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  try {
    context = new Context();
  } catch {
    return null;
  }
  return context;
}

/** Play one of the table's sounds, unless muted. Never waits, never throws. */
export function playSound(name) {
  const sound = SOUNDS[name];
  if (!sound || !soundOn()) return;
  window.cardtableSounds.push(name);
  const ctx = audio();
  if (!ctx) return;
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  const start = ctx.currentTime + 0.01;
  for (const [frequency, at, length] of sound.notes) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = sound.wave;
    osc.frequency.value = frequency;
    gain.gain.setValueAtTime(sound.gain, start + at);
    gain.gain.exponentialRampToValueAtTime(0.001, start + at + length);
    osc.connect(gain).connect(ctx.destination);
    osc.start(start + at);
    osc.stop(start + at + length + 0.02);
  }
}

/** The one mute switch: a toggle button whose state is remembered. */
export function soundSwitch() {
  const button = h("button", { type: "button", class: "small soundswitch", "data-key": "sound" });
  const show = () => {
    const on = soundOn();
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.textContent = `${on ? "♪" : "✕"} ${t(on ? "soundOn" : "soundOff")}`;
    button.title = t("sound");
  };
  button.addEventListener("click", () => {
    setSoundOn(!soundOn());
    show();
    if (soundOn()) playSound("card");
  });
  show();
  return button;
}
