// The pages' words in their scripts: a text with a number may have a form for each plural
// category of the page's language, joined by "|" in the order of the words' `plural_forms`
// (web/i18n.py; the server picks its forms by the same rules as the browser's Intl.PluralRules).
"use strict";
window.OgamesWords = (function () {
  let rules = null;
  try { rules = new Intl.PluralRules(document.documentElement.lang || "en"); } catch (e) { rules = null; }

  function fill(template, values) {
    return String(template).replace(/\{(\w+)\}/g, function (all, key) { return key in values ? values[key] : all; });
  }

  // The form of words[key] for the number n, filled in with n and the other values.
  function plural(words, key, n, values) {
    const forms = String(words[key] || "").split("|");
    const order = String(words.plural_forms || "one|other").split("|");
    const category = rules ? rules.select(n) : (n === 1 ? "one" : "other");
    let index = order.indexOf(category);
    if (index < 0) index = forms.length - 1;
    return fill(forms[Math.min(index, forms.length - 1)], Object.assign({ n: n }, values || {}));
  }

  return { fill: fill, plural: plural };
})();
