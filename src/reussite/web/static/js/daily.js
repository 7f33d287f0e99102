// The daily deals' page: the time left until the next day's deals, counted down.

const left = document.querySelector("time.time-left");

if (left) {
  const end = Date.now() + Number(left.dataset.seconds) * 1000;
  const show = () => {
    const s = Math.max(0, Math.round((end - Date.now()) / 1000));
    const hh = Math.floor(s / 3600);
    const mm = String(Math.floor((s % 3600) / 60)).padStart(2, "0");
    const ss = String(s % 60).padStart(2, "0");
    left.textContent = `${hh}:${mm}:${ss}`;
    if (s === 0) window.location.reload();
  };
  show();
  setInterval(show, 1000);
}
