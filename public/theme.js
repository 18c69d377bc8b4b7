// Applies the theme before the first paint (a blocking script in <head>, so a dark user never sees a
// light flash): the user's choice as last saved in this browser ('light', 'dark', or 'system' when
// unset), following the system's setting live when the choice is 'system'. The preferences plugin
// writes the choice here and saves it on the server; another tab's change follows through 'storage'.
(function () {
  var media = window.matchMedia('(prefers-color-scheme: dark)');
  function apply() {
    var choice = null;
    try { choice = localStorage.getItem('uc-theme'); } catch (e) { /* storage blocked: follow the system */ }
    var dark = choice === 'dark' || (choice !== 'light' && media.matches);
    document.documentElement.setAttribute('data-theme', dark ? 'dark' : 'light');
  }
  apply();
  media.addEventListener('change', apply);
  window.addEventListener('storage', function (e) { if (e.key === 'uc-theme') apply(); });
})();
