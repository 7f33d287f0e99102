// Sounds, off by default (a setting): short tones made with WebAudio, no audio file. A move
// taps, a deal from the stock riffles, a win plays a rising arpeggio.

let audio = null;

function context() {
  if (!audio) {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    audio = new Context();
  }
  if (audio.state === "suspended") audio.resume();
  return audio;
}

/** One tone: a quick attack and an exponential fade. */
function tone(ac, at, freq, length, type, volume) {
  const osc = ac.createOscillator();
  const gain = ac.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, at);
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(volume, at + 0.006);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(gain).connect(ac.destination);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

// Each sound: its tones as [start (s), frequency (Hz), length (s), wave, volume].
const SOUNDS = {
  move: [[0, 330, 0.07, "triangle", 0.2], [0.012, 660, 0.04, "sine", 0.06]],
  deal: [0, 0.045, 0.09, 0.135].map((at, i) => [at, 420 + 40 * i, 0.05, "triangle", 0.14]),
  win: [523.25, 659.25, 783.99, 1046.5].map((f, i) => [0.13 * i, f, 0.32, "sine", 0.18]),
};

/** Play a sound by name ("move", "deal", "win"). */
export function playSound(name) {
  const ac = SOUNDS[name] ? context() : null;
  if (!ac) return;
  const now = ac.currentTime + 0.01;
  for (const [at, freq, length, type, volume] of SOUNDS[name]) {
    tone(ac, now + at, freq, length, type, volume);
  }
}

/** What a new view sounds like after the old one: "win", "deal", "move", or null. */
export function soundOf(old, view) {
  if (!old || old.id !== view.id) return null; // another game shown (a new deal: startGame)
  if (view.status === "won" && old.status !== "won") return "win";
  // A move drawn before the server answers (optimistic.js) makes its sound then; the answer
  // that follows it makes none.
  if (view.guessed) return (view.events || []).length ? "move" : null;
  if (old.guessed) return null;
  if (view.version === old.version) return null;
  const events = view.events || [];
  if (events.some((e) => e.from === "stock" && e.to !== "waste")) return "deal";
  return events.length ? "move" : null;
}
