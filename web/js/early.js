// Read before the page is drawn (a classic script in <head>, not a module): the theme and the
// animation speed this browser chose (shared/settings.js keeps them), set on <html> so that the
// first paint is already in the right colours. A choice of "system" follows the system's
// light or dark scheme. Nothing here may fail the page.
(function () {
  var root = document.documentElement;
  try {
    var theme = localStorage.getItem('djambi.theme');
    var dark = theme === 'dark' || (theme !== 'light' && window.matchMedia && matchMedia('(prefers-color-scheme: dark)').matches);
    root.setAttribute('data-theme', dark ? 'dark' : 'light');
    var motion = localStorage.getItem('djambi.motion');
    if (motion === 'slow' || motion === 'fast' || motion === 'off') root.setAttribute('data-motion', motion);
  } catch (e) {
    root.setAttribute('data-theme', 'light');
  }
})();
