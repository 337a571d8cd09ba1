/// The script that measures a page at a list of viewport widths in one call, as JSON text: an
/// array with one report per width, each holding every marked `<img>`'s box (with its
/// `object-fit`, its content box and the file it shows with its natural size, from which
/// `Samples` finds the width its content is painted at) and every background layer that paints
/// a `url()`, with the layer's computed size, its positioning area and the image's natural size.
///
/// It is evaluated in the page's frame, which `SiteResponder`'s host page holds in an
/// `<iframe>` as wide as the viewport being measured, in an isolated world of dppx's (`world`):
/// the page's DOM and layout, none of its JavaScript, so a page that replaces `JSON.stringify`,
/// `Array.prototype.map` or a global of dppx's changes nothing here. The script sets the frame's
/// width and reads the layout at once. Reading a box forces style and layout of the frame and the page in
/// it, media queries and `vw` included, so one call measures every width with no round trip to
/// the browser between them. Checking a rewrite (`settle`), it waits at each width for two
/// frames and for every image to be loaded and decoded or to fail (at most 2 s each): a
/// `w`-described `<img>` picks its file for the new width in the next rendering steps and takes
/// its natural size from that file. Images with `loading="lazy"` are made eager first, and
/// waited for once, measuring and checking alike: both sides of a check wait for the same thing.
/// (A frame loaded at each width instead, all at once, took longer: 29 loads of the page.)
///
/// An `<img>` with no box at a width, in an element of `display: none` beside a displayed
/// sibling of its kind (a carousel's other slides, a closed tab panel, a filtered-out grid
/// item), is measured with that element displayed as the sibling is, for the moment of reading
/// its box, after everything else at that width was read: its report lists it under `shown`
/// (its place there is not where the page puts it). One that no sibling escapes keeps no box.
///
/// The positioning area is the padding box, or the border or content box per
/// `background-origin`; the viewport for `background-attachment: fixed`.
///
/// A rewritten stylesheet's `@media` blocks of `image-set()`s after a rule are dropped before
/// anything is measured, so the page is measured as the untouched one; except when checking a
/// rewrite as it would be written (`asWritten`), which measures those blocks. Checking, a layer
/// painted from an `image-set()` is read as the file Chromium chose from it, at that option's
/// resolution (`imageSets`); measuring, such a layer is left out.
///
/// Each layer also names the declaration that paints it, which is what a rewrite adds `@media`
/// blocks after: the URL of its stylesheet (the page's for a `<style>` element or a `style`
/// attribute), its style rule's `selectorText` (null for a `style` attribute), for a
/// declaration nested in the rule's `@media` or `@supports` blocks (`.hero { ...; @media
/// (max-width: 600px) { background-image: ... } }`) those blocks' conditions, outermost first
/// (null for the rule's own), and the image function of each layer of the declaration the
/// browser kept (`url`, `-webkit-linear-gradient`, `none`): which one of a vendor stack it is.
/// That is the `background-image` that wins the cascade among the style rules in effect now
/// (in `@media` and `@supports` blocks whose condition holds, nested or not, and imported
/// sheets) and the `style` attribute: `!important` first, then the attribute, then the
/// specificity of the rule's selector that matches, then the later declaration. (Cascade
/// layers, `@container` and nested rules with selectors of their own are not weighed: rare
/// for a background, and a wrong guess only leaves the layer unmatched.)
enum MeasureScript {
    /// A function of the widths (CSS px), whether to settle at each, the scrollbars to measure
    /// each width with (`Scrollbars`' raw values) and whether to read the images' computed
    /// styles, giving `{reports, styles, named, rules, matched}`: a report per width and
    /// scrollbars, in that order (with styles, each `<img>` of the first scrollbars' reports
    /// ends with the hashes of its style and its holder's), each style hash's property hashes
    /// by name, the index of the first of the install's selectors matching each `<img>`, and
    /// the style rules whose selectors depend on an element's place (`[sheet URL, selector,
    /// properties]`) with those that matched each `<img>` or its holder (`[0 or 1, index]`),
    /// by offset. Each report's `shown` lists the offsets of the `<img>` tags measured shown.
    static let source = #"""
    (async (widths, settle, modes, quiet, styles, asWritten, imageSets) => {
      const mark = window.__dppxMark;
      // No scrollbar taking room (as on phones, and as `sizes` are fitted), or the browser's
      // classic ones (as on desktop), which `vw` and media queries count and the layout does not.
      if (!window.__dppxNoScrollbars) {
        window.__dppxNoScrollbars = new CSSStyleSheet();
        window.__dppxNoScrollbars.replaceSync('* { scrollbar-width: none !important }');
      }
      const hidden = window.__dppxNoScrollbars;
      const scrollbars = (mode) => {
        document.adoptedStyleSheets = document.adoptedStyleSheets.filter((sheet) => sheet !== hidden)
          .concat(mode === 'hidden' ? [hidden] : []);
      };
      const split = (text) => {
        const out = []; let depth = 0, quote = null, start = 0;
        for (let i = 0; i < text.length; i++) {
          const c = text[i];
          if (quote) { if (c === '\\') i++; else if (c === quote) quote = null; }
          else if (c === '"' || c === "'") quote = c;
          else if (c === '(') depth++;
          else if (c === ')') depth--;
          else if (c === ',' && depth === 0) { out.push(text.slice(start, i).trim()); start = i + 1; }
        }
        out.push(text.slice(start).trim());
        return out;
      };
      const pathOf = (element) => {
        const steps = [];
        while (element && element !== document.documentElement) {
          if (element.id) { steps.unshift('#' + CSS.escape(element.id)); return steps.join(' > '); }
          let index = 1;
          for (let sibling = element.previousElementSibling; sibling; sibling = sibling.previousElementSibling) index++;
          steps.unshift(element.localName + ':nth-child(' + index + ')');
          element = element.parentElement;
        }
        steps.unshift('html');
        return steps.join(' > ');
      };
      // The specificity of one complex selector, as [ids, classes, types].
      const specificity = (text) => {
        const total = [0, 0, 0];
        const add = (other) => { for (let k = 0; k < 3; k++) total[k] += other[k]; };
        const most = (list) => split(list).map(specificity).reduce((a, b) => (a[0] - b[0] || a[1] - b[1] || a[2] - b[2]) >= 0 ? a : b, [0, 0, 0]);
        const isName = (c) => c !== undefined && /[-\w\u0080-\uffff\\]/.test(c);
        let i = 0;
        const name = () => { const start = i; while (i < text.length && isName(text[i])) i += text[i] === '\\' ? 2 : 1; return text.slice(start, i).toLowerCase(); };
        const group = () => {
          let depth = 0, quote = null; const start = i;
          for (; i < text.length; i++) {
            const c = text[i];
            if (quote) { if (c === '\\') i++; else if (c === quote) quote = null; }
            else if (c === '"' || c === "'") quote = c;
            else if (c === '(' || c === '[') depth++;
            else if ((c === ')' || c === ']') && --depth === 0) { i++; break; }
          }
          return text.slice(start + 1, i - 1);
        };
        while (i < text.length) {
          const c = text[i];
          if (c === '#') { i++; name(); total[0]++; }
          else if (c === '.') { i++; name(); total[1]++; }
          else if (c === '[') { group(); total[1]++; }
          else if (c === ':' && text[i + 1] === ':') { i += 2; name(); if (text[i] === '(') group(); total[2]++; }
          else if (c === ':') {
            i++;
            const pseudo = name();
            const inner = text[i] === '(' ? group() : null;
            if (pseudo === 'where') continue;
            if (['is', 'not', 'has', 'matches', '-webkit-any'].includes(pseudo) && inner !== null) { add(most(inner)); continue; }
            if (['before', 'after', 'first-line', 'first-letter'].includes(pseudo)) { total[2]++; continue; }
            total[1]++;
            const of = inner === null ? -1 : inner.search(/\sof\s/);
            if (of >= 0 && (pseudo === 'nth-child' || pseudo === 'nth-last-child')) add(most(inner.slice(of + 4)));
          } else if (c === '*') i++;
          else if (isName(c)) { name(); if (text[i] === '|') { i++; if (text[i] === '*') i++; else { name(); total[2]++; } } else total[2]++; }
          else i++;
        }
        return total;
      };
      // The @media blocks a rewrite wrote after a rule (rules of the same selector with only a
      // background-image of an image-set(), in @media blocks, those of a nested declaration
      // also in its @media or @supports) are dropped first, as PageMarks turns off the srcset
      // it wrote: a rewritten page is measured as the untouched one.
      const isGroup = (rule) => rule instanceof CSSMediaRule || rule instanceof CSSSupportsRule;
      const written = (rule, selector, depth) => isGroup(rule) && depth < 8 && rule.cssRules.length > 0 && [...rule.cssRules].every((inner) =>
        inner instanceof CSSStyleRule
          ? inner.selectorText === selector && inner.style.length === 1 && inner.style.backgroundImage.includes('image-set(') && !inner.cssRules.length
          : written(inner, selector, depth + 1));
      const firstSelector = (rule) => {
        for (let depth = 0; rule && isGroup(rule) && depth < 8; depth++) rule = rule.cssRules[0];
        return rule instanceof CSSStyleRule ? rule.selectorText : null;
      };
      const undoRewrite = (list, owner) => {
        for (let i = list.length - 1; i >= 0; i--) {
          const rule = list[i];
          if (isGroup(rule)) undoRewrite(rule.cssRules, rule);
          const selector = firstSelector(rule);
          if (selector === null || !written(rule, selector, 0)) continue;
          let before = i - 1;
          while (before >= 0 && written(list[before], selector, 0)) before--;
          if (before >= 0 && list[before] instanceof CSSStyleRule && list[before].selectorText === selector) owner.deleteRule(i);
        }
      };
      // Checking a rewrite as written (`asWritten`) keeps them: they are what is checked.
      if (!asWritten) {
        for (const sheet of document.styleSheets) {
          try { undoRewrite(sheet.cssRules, sheet); } catch (error) {}
        }
      }
      // With `imageSets` (checking), a layer painted from an `image-set()` is read as the image
      // Chromium chose from it, with that option's resolution: options of a type() it cannot
      // decode dropped, then of a resolution already listed, then the lowest resolution at or
      // above the device's pixel ratio, else the highest (Blink's CSSImageSetValue). Its
      // computed value is `image-set(url("...") 1.5dppx type("image/avif"), ...)`. A `url()`
      // layer's resolution is null; a layer that paints no image of a URL gives null.
      const decoded = /^image\/(avif|webp|jpeg|png|gif|apng|bmp|x-icon|vnd\.microsoft\.icon|svg\+xml)$/;
      const chosen = (layer) => {
        const plain = /^url\(\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|([^)]*?))\s*\)$/.exec(layer);
        if (plain) return [(plain[1] ?? plain[2] ?? plain[3]).replace(/\\(.)/g, '$1'), null];
        if (!imageSets || !layer.startsWith('image-set(') || !layer.endsWith(')') || layer.length > 65536) return null;
        const options = [];
        for (const text of split(layer.slice('image-set('.length, -1)).slice(0, 256)) {
          const option = /^url\(\s*"((?:[^"\\]|\\.)*)"\s*\)\s+([0-9.eE+-]+)dppx(?:\s+type\(\s*"((?:[^"\\]|\\.)*)"\s*\))?$/.exec(text);
          if (!option) continue;
          const resolution = Number(option[2]);
          if (!(resolution > 0) || !isFinite(resolution)) continue;
          if (option[3] !== undefined && !decoded.test(option[3].replace(/\\(.)/g, '$1').trim().toLowerCase())) continue;
          options.push([option[1].replace(/\\(.)/g, '$1'), resolution]);
        }
        options.sort((a, b) => a[1] - b[1]);
        const distinct = options.filter((option, index) => index === 0 || option[1] !== options[index - 1][1]);
        return distinct.find((option) => option[1] >= devicePixelRatio) ?? distinct[distinct.length - 1] ?? null;
      };
      // Natural sizes are kept across widths and calls: a probe's load event waits for a task of its own.
      const natural = window.__dppxNatural || (window.__dppxNatural = new Map());
      const frame = window.frameElement;
      // Every image loaded and decoded, or failed (at most 2 s each): its box then has the
      // natural size the page gives it in a browser.
      const loaded = () => Promise.all([...document.images].map((image) => Promise.race([
        (image.complete ? Promise.resolve() : new Promise((done) => {
          image.addEventListener('load', done, { once: true });
          image.addEventListener('error', done, { once: true });
        })).then(() => image.decode()).catch(() => null),
        new Promise((done) => setTimeout(done, 2000)),
      ])));
      // Every image loads as in a browser scrolled past it, once a page: a `loading="lazy"` one
      // far below the fold would otherwise never load, and read 0 px high where only its file
      // gives it a height, in one load and not in another.
      if (!window.__dppxEager) {
        window.__dppxEager = true;
        for (const image of document.querySelectorAll('img[loading]')) {
          if (image.loading === 'lazy') image.loading = 'eager';
        }
        await loaded();
      }
      // Two frames, then every image loaded and decoded, or failed. With `quiet` (ms): first
      // until the page's DOM has not changed for that long since the resize, so a script's
      // resize handler, debounced as sliders do (Flickity 100 ms), has run. On a busy machine
      // the page's timers fire late as dppx's do: the wait grows by how late dppx's own timers
      // came (at most 2 s in all).
      const settled = async () => {
        await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
        if (quiet > 0) {
          const start = performance.now();
          let last = start, lag = 0;
          const observer = new MutationObserver(() => { last = performance.now(); });
          observer.observe(document.documentElement, { attributes: true, childList: true, subtree: true, characterData: true });
          while (performance.now() - last < quiet + lag && performance.now() - start < 2000) {
            const asked = Math.max(5, quiet + lag - (performance.now() - last));
            const before = performance.now();
            await new Promise((done) => setTimeout(done, asked));
            lag += Math.max(0, performance.now() - before - asked);
          }
          observer.disconnect();
          await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
        }
        await loaded();
      };
      // With `styles`: the computed style of each marked <img> and of its holder (its parent,
      // or its <picture>'s: the same element with a wrapper or without), every property but
      // custom ones and the logical ones (`inline-size`: the physical property it maps to, with
      // `writing-mode` and `direction`, says the same), as computed values (`width: 100%`, not
      // the 400 px laid out), kept as a hash; each hash's properties hashed one by one, in
      // `styleTable`, name the ones that differ. At most `maximumStyles` are tabled; a hash past
      // them differs as a whole.
      const styleTable = new Map(), maximumStyles = 8192;
      const logical = /(^|-)(block|inline)(-|$)|^border-(start|end)-(start|end)-radius$/;
      const fnv = (text, seed) => {
        let hash = seed >>> 0;
        for (let i = 0; i < text.length; i++) { hash ^= text.charCodeAt(i); hash = Math.imul(hash, 16777619); }
        return hash >>> 0;
      };
      const hex = (number) => number.toString(16).padStart(8, '0');
      const styleOf = (element, known) => {
        if (!element) return '0000000000000000';
        if (known.has(element)) return known.get(element);
        const values = {};
        let all = '';
        for (const [name, value] of element.computedStyleMap()) {
          if (name.startsWith('--') || logical.test(name)) continue;
          const text = String(value);
          values[name] = fnv(text, 2166136261);
          all += name + ':' + text + ';';
        }
        const key = hex(fnv(all, 2166136261)) + hex(fnv(all, 3735928559));
        if (!styleTable.has(key) && styleTable.size < maximumStyles) styleTable.set(key, values);
        known.set(element, key);
        return key;
      };
      const holderOf = (image) => {
        const parent = image.parentElement;
        return parent && parent.localName === 'picture' ? parent.parentElement : parent;
      };
      // The selectors of the page's own scripts that name where an <img> sits among its
      // parent's children (`ScriptSelectors`): the first that matches each marked <img>.
      const named = {};
      // The style rules whose selector depends on where an element sits among its parent's
      // children (a child or sibling combinator, `:first-child`, `:nth-of-type()`, `:has()`,
      // `:empty`) that matched each marked <img> (0) or its holder (1) at some width, by offset:
      // what names the selector behind a change. Each rule is its stylesheet's URL, its
      // selector and the properties it sets (longhands, the logical ones aside), at most
      // `maximumRules` of them.
      const placing = /[>+~]|:(first|last|only|nth|nth-last)-(child|of-type)|:has\(|:empty/;
      const ruleTable = [], ruleKeys = new Map(), matched = {}, maximumRules = 256;
      const ruleIndex = (rule) => {
        const key = rule.href + '\n' + rule.selector;
        if (ruleKeys.has(key)) return ruleKeys.get(key);
        if (ruleTable.length >= maximumRules) return -1;
        const names = [];
        for (let i = 0; i < rule.style.length && names.length < 64; i++) {
          if (!logical.test(rule.style[i]) && !rule.style[i].startsWith('--')) names.push(rule.style[i]);
        }
        ruleTable.push([rule.href, rule.selector, names]);
        ruleKeys.set(key, ruleTable.length - 1);
        return ruleTable.length - 1;
      };
      // An <img> with no box is in an element of `display: none` (it, or one around it: a
      // carousel's other slide, a closed tab panel, a filtered-out grid item). Where the page
      // shows such an element by script in its container (the slide track, the tab list's
      // panels, the grid), its box when shown is the one it has there, displayed as its
      // siblings of its kind are: what `hiddenChain` finds and `showAs` does, for the moment of
      // reading the box. Each element of `display: none` from the <img> up must have a
      // sibling of its kind (the same tag, and a class in common, or neither with a class and
      // the same `role`) that is displayed, whose computed `display` it is given: a slide
      // beside the active slide, a panel beside the open one. A `display: none` no sibling
      // escapes (a closed <dialog>, a lone element a script reveals, a `@media` rule hiding a
      // column at some widths) is left as it is: its width when shown is unknown, or it is not
      // shown at that width. (Showing it in place of its sibling, hiding the one shown, would
      // restart that sibling's animations and cancel its transitions: the page would see it.)
      //
      // Showing is an inline `display: ... !important`, which beats the page's rules, the
      // `hidden` attribute and its own inline style, set and undone within this synchronous
      // function (the style attribute restored to the text it had, or removed when it had
      // none), so no frame is painted, and no resize or intersection observer of the page
      // runs, with the element shown (they run at a frame). The DOM is one for every
      // world: a page's MutationObserver watching style attributes is told of two changes that
      // cancel out. A style the page gives only the element it shows (`.active img`) is not
      // applied: the element is displayed, not made the active one.
      const maximumShown = 256, maximumDepth = 256, maximumSiblings = 256;
      const kin = (a, b) => a.localName === b.localName && (a.classList.length || b.classList.length
        ? [...a.classList].some((name) => b.classList.contains(name))
        : a.getAttribute('role') === b.getAttribute('role'));
      // The `display` of the nearest displayed sibling of `element`'s kind, both ways, or null.
      const siblingDisplay = (element) => {
        let before = element.previousElementSibling, after = element.nextElementSibling;
        for (let step = 0; step < maximumSiblings && (before || after); step++) {
          for (const sibling of [before, after]) {
            if (!sibling || !kin(sibling, element)) continue;
            const display = getComputedStyle(sibling).display;
            if (display && display !== 'none') return display;
          }
          before = before && before.previousElementSibling;
          after = after && after.nextElementSibling;
        }
        return null;
      };
      // `[[element, display], ...]` for every element of display: none from `image` up, nearest
      // first; null when there is none, or one no sibling escapes. `known`: each element's
      // sibling display found so far at this width (the slides of one track share ancestors).
      const hiddenChain = (image, known) => {
        const chain = [];
        let depth = 0;
        for (let element = image; element && element !== document.documentElement; element = element.parentElement) {
          if (++depth > maximumDepth) return null;
          if (getComputedStyle(element).display !== 'none') continue;
          if (!known.has(element)) known.set(element, element.style ? siblingDisplay(element) : null);
          const display = known.get(element);
          if (!display) return null;
          chain.push([element, display]);
        }
        return chain.length ? chain : null;
      };
      // Displays `element` as `display`, giving back what undoes it: its inline `display` as it
      // was (through the CSSOM, which a Content-Security-Policy without 'unsafe-inline'
      // allows), then the attribute's text as it was.
      const showAs = (element, display) => {
        const text = element.getAttribute('style');
        const value = element.style.getPropertyValue('display'), priority = element.style.getPropertyPriority('display');
        element.style.setProperty('display', display, 'important');
        return () => {
          if (value) element.style.setProperty('display', value, priority);
          else element.style.removeProperty('display');
          if (text === null) element.removeAttribute('style');
          else if (element.getAttribute('style') !== text) element.setAttribute('style', text);
        };
      };
      const measureNow = (withStyles) => {
        const known = new Map();
        // Every style rule in effect now that sets background-image, in cascade order; with
        // styles, those whose selector depends on an element's place among its parent's
        // children (`placing`).
        const rules = [], placed = [];
        // Inside a style rule (`within`: its selector and the conditions of the at-rules nested
        // in it so far), the declarations of a nested `@media` or `@supports` whose condition
        // holds are the rule's own, later in it: `.hero { ...; @media (max-width: 600px) {
        // background-image: ... } }`. A nested style rule with a selector of its own, a nested
        // `@layer` (its declarations lose to the rule's unlayered ones) and `@container` are
        // not weighed.
        const collect = (list, href, within) => {
          const holds = (media) => !media || !media.length || matchMedia(media.mediaText).matches;
          const nest = (condition) => within && { selector: within.selector, nested: within.nested.concat([condition]) };
          // The browser keeps the last declaration of a rule it accepts: of a vendor stack
          // (`-webkit-linear-gradient(top, ...), url(hero.jpg)` then an unprefixed
          // `linear-gradient(top, ...)`, which is invalid), the prefixed one. Each layer's image
          // function in it (`url`, `-webkit-linear-gradient`, `none`) names which one it is.
          const declares = (style, selector, nested) => {
            const value = style.getPropertyValue('background-image');
            if (value) {
              const images = split(value).map((layer) => { const name = /^([-a-zA-Z]+)\(/.exec(layer); return name ? name[1].toLowerCase() : layer.toLowerCase(); });
              rules.push({ href, selector, nested: nested && nested.length ? nested : null, images,
                           important: style.getPropertyPriority('background-image') === 'important' });
            }
          };
          for (const rule of list) {
            if (rule instanceof CSSImportRule) {
              let imported = null;
              try { imported = rule.styleSheet && rule.styleSheet.cssRules; } catch (error) {}
              if (imported && holds(rule.media)) collect(imported, rule.styleSheet.href || href, null);
            } else if (rule instanceof CSSMediaRule) { if (holds(rule.media)) collect(rule.cssRules, href, nest('@media ' + rule.media.mediaText)); }
            else if (rule instanceof CSSSupportsRule) { if (CSS.supports(rule.conditionText)) collect(rule.cssRules, href, nest('@supports ' + rule.conditionText)); }
            else if (typeof CSSLayerBlockRule !== 'undefined' && rule instanceof CSSLayerBlockRule) { if (!within) collect(rule.cssRules, href, null); }
            else if (typeof CSSNestedDeclarations !== 'undefined' && rule instanceof CSSNestedDeclarations) {
              if (within) declares(rule.style, within.selector, within.nested);
            } else if (rule instanceof CSSStyleRule && !within) {
              declares(rule.style, rule.selectorText, null);
              if (withStyles && placing.test(rule.selectorText)) placed.push({ href, selector: rule.selectorText, style: rule.style });
              if (rule.cssRules && rule.cssRules.length) collect(rule.cssRules, href, { selector: rule.selectorText, nested: [] });
            }
          }
        };
        for (const sheet of document.styleSheets) {
          if (sheet.disabled || (sheet.media.length && !matchMedia(sheet.media.mediaText).matches)) continue;
          let list = null;
          try { list = sheet.cssRules; } catch (error) {}
          if (list) collect(list, sheet.href || location.href, null);
        }
        // The stylesheet URL, selector, nested conditions and layers' image functions of the
        // background-image that wins on `element`.
        const sourceOf = (element) => {
          let best = null, bestKey = null;
          const consider = (key, source) => {
            const k = bestKey ? key.findIndex((value, at) => value !== bestKey[at]) : 0;
            if (!bestKey || (k >= 0 && key[k] > bestKey[k])) { best = source; bestKey = key; }
          };
          rules.forEach((rule, order) => {
            let matching = null;
            try { matching = split(rule.selector).filter((one) => element.matches(one)); } catch (error) { return; }
            if (!matching.length) return;
            const weight = matching.map(specificity).reduce((a, b) => (a[0] - b[0] || a[1] - b[1] || a[2] - b[2]) >= 0 ? a : b);
            consider([rule.important ? 1 : 0, 0, ...weight, order], [rule.href, rule.selector, rule.nested, rule.images]);
          });
          if (element.style && element.style.getPropertyValue('background-image')) {
            consider([element.style.getPropertyPriority('background-image') === 'important' ? 1 : 0, 1, 0, 0, 0, 0], [location.href, null, null, null]);
          }
          return best || [null, null, null, null];
        };
        // An <img>'s box, where it is, its content box (the box less padding and border),
        // where object-fit paints the image, and the file it shows with its natural size: the
        // file's URL only when it is the site's (a data: URL of megabytes is not sent back at
        // every width).
        const boxOf = (image) => {
          const box = image.getBoundingClientRect();
          const style = getComputedStyle(image);
          const shown = image.currentSrc || '';
          const px = (name) => parseFloat(style.getPropertyValue(name)) || 0;
          const across = px('padding-left') + px('padding-right') + px('border-left-width') + px('border-right-width');
          const down = px('padding-top') + px('padding-bottom') + px('border-top-width') + px('border-bottom-width');
          return [box.width, box.height, image.getAttribute('src') || '', box.left + scrollX, box.top + scrollY,
                  style.objectFit, Math.max(0, box.width - across), Math.max(0, box.height - down),
                  shown.startsWith(location.origin + '/') && shown.length <= 4096 ? shown : '', image.naturalWidth, image.naturalHeight];
        };
        // The <img> tags SiteResponder marked, by the byte offset of each: a mark with another
        // offset is not one of dppx's, and two elements with one mark (a script copied the
        // element) cannot tell which is the page's. Those with no box (`unseen`: display: none
        // on them or an element around them) are measured shown after everything else.
        const images = [], marked = new Set(), unseen = [];
        for (const image of document.querySelectorAll('img[' + mark.attribute + ']')) {
          const offset = Number(image.getAttribute(mark.attribute));
          if (!mark.offsets.has(offset)) continue;
          if (marked.has(offset)) throw new Error('two elements carry the mark of the <img> at byte ' + offset + ' (a script copied it)');
          marked.add(offset);
          const entry = [offset, ...boxOf(image)];
          if (!image.getClientRects().length) unseen.push([entry, image]);
          if (withStyles) {
            entry.push(styleOf(image, known), styleOf(holderOf(image), known));
            if (!(offset in named)) {
              const index = (mark.selectors || []).findIndex((selector) => { try { return image.matches(selector); } catch (error) { return false; } });
              if (index >= 0) named[offset] = index;
            }
            const holder = holderOf(image);
            for (const rule of placed) {
              [image, holder].forEach((element, which) => {
                let matches = false;
                try { matches = !!element && element.matches(rule.selector); } catch (error) {}
                const index = matches ? ruleIndex(rule) : -1;
                if (index < 0) return;
                const list = matched[offset] || (matched[offset] = []);
                if (!list.some((pair) => pair[0] === which && pair[1] === index)) list.push([which, index]);
              });
            }
          }
          images.push(entry);
        }
        const backgrounds = [];
        for (const element of document.querySelectorAll('*')) {
          const style = getComputedStyle(element);
          if (!style.backgroundImage.includes('url(')) continue;
          const layers = split(style.backgroundImage), sizes = split(style.backgroundSize);
          const origins = split(style.backgroundOrigin), attachments = split(style.backgroundAttachment);
          const box = element.getBoundingClientRect();
          const source = sourceOf(element);
          const px = (name) => parseFloat(style.getPropertyValue(name)) || 0;
          layers.forEach((layer, index) => {
            const image = chosen(layer);
            if (!image) return;
            const [url, resolution] = image;
            let width = box.width, height = box.height;
            if (attachments[index % attachments.length] === 'fixed') {
              width = innerWidth; height = innerHeight;
            } else {
              const origin = origins[index % origins.length];
              if (origin !== 'border-box') {
                width -= px('border-left-width') + px('border-right-width');
                height -= px('border-top-width') + px('border-bottom-width');
              }
              if (origin === 'content-box') {
                width -= px('padding-left') + px('padding-right');
                height -= px('padding-top') + px('padding-bottom');
              }
            }
            backgrounds.push([pathOf(element), index, url, sizes[index % sizes.length], width, height, ...source, resolution]);
            if (!natural.has(url)) natural.set(url, null);
          });
        }
        const report = {
          viewport: innerWidth,
          clientWidth: document.documentElement.clientWidth,
          // The bottom of what the page held when it loaded (its body's children then): content
          // a script adds later (a banner, a beacon image) at a moment that varies from run to
          // run is not the layout's.
          height: (window.__dppxLoaded || [document.documentElement]).reduce((bottom, element) =>
            element.isConnected ? Math.max(bottom, element.getBoundingClientRect().bottom + scrollY) : bottom, 0),
          loadedElements: window.__dppxLoadedElements ?? null,
          images,
          backgrounds,
          shown: [],
        };
        // Everything else read, each hidden <img> that can be is measured shown, its entry's
        // box replaced: the page as it is laid out above, and the one box each time.
        const groups = new Map(), siblings = new Map();
        for (const [entry, image] of unseen) {
          const chain = hiddenChain(image, siblings);
          if (!chain) continue;
          if (!groups.has(chain[0][0])) {
            if (groups.size >= maximumShown) continue;
            groups.set(chain[0][0], { chain, members: [] });
          }
          groups.get(chain[0][0]).members.push([entry, image]);
        }
        for (const { chain, members } of groups.values()) {
          const undo = [];
          try {
            for (const [element, display] of chain) undo.push(showAs(element, display));
            for (const [entry, image] of members) {
              if (!image.getClientRects().length) continue;
              entry.splice(1, 11, ...boxOf(image));
              report.shown.push(entry[0]);
            }
          } finally {
            for (const restore of undo.reverse()) restore();
          }
        }
        return report;
      };
      // Settled with the first scrollbars, measured with each: showing a scrollbar changes the
      // width the page lays out in, not the viewport's, so no image picks another file.
      const reports = [];
      for (const width of widths) {
        frame.style.width = width + 'px';
        scrollbars(modes[0]);
        if (settle) await settled();
        for (const mode of modes) {
          scrollbars(mode);
          reports.push(measureNow(styles && mode === modes[0]));
        }
      }
      scrollbars(modes[0]);
      await Promise.all([...natural.keys()].filter((url) => natural.get(url) === null).map((url) => new Promise((done) => {
        const probe = new Image();
        probe.onload = () => { natural.set(url, [probe.naturalWidth, probe.naturalHeight]); done(); };
        probe.onerror = () => { natural.set(url, [0, 0]); done(); };
        probe.src = url;
      })));
      return JSON.stringify({
        reports: reports.map((report) => Object.assign(report, {
          backgrounds: report.backgrounds.map((layer) => layer.slice(0, 6).concat(natural.get(layer[2]), layer.slice(6))),
        })),
        styles: Object.fromEntries(styleTable),
        named,
        rules: ruleTable,
        matched,
      });
    })
    """#

    /// The name of dppx's isolated world in every frame (`Page.addScriptToEvaluateOnNewDocument`
    /// and `Page.createIsolatedWorld` give the same world for one name).
    static let world = "dppx"

    /// The expression that installs `source` in dppx's world of the page's frame as
    /// `__dppxMeasure`, once a page (each round then sends only `call`), with the attribute
    /// that marks the page's `<img>` tags and the offsets marked: what the script reports.
    /// `selectors`: the selectors of the page's own scripts that name an element's place among
    /// its parent's children (`ScriptSelectors`), matched against each `<img>` with styles.
    static func install(attribute: String, offsets: [Int], selectors: [String] = []) -> String {
        "window.__dppxMark = { attribute: \(javaScriptString(attribute)), offsets: new Set([\(offsets.map(String.init).joined(separator: ","))]), "
            + "selectors: [\(selectors.map(javaScriptString).joined(separator: ","))] }; "
            + "window.__dppxMeasure = \(source); true"
    }

    /// How long the DOM of a page sized by script must stay unchanged after a resize, ms, before
    /// it is measured there: past the debounce of the usual sliders' resize handlers.
    static let quietPeriod = 150

    /// The expression that calls the installed script (`quiet`: the quiet period to wait for
    /// at each width when settling, 0 for none; `styles`: read the images' computed styles;
    /// `asWritten`: keep the `@media` blocks of `image-set()`s a rewrite wrote; `imageSets`: read
    /// a layer painted from an `image-set()` as the option chosen).
    static func call(widths: [Int], settle: Bool, quiet: Int = 0, scrollbars: [Scrollbars], styles: Bool = false,
                     asWritten: Bool = false, imageSets: Bool = false) -> String {
        let modes = scrollbars.map { "'\($0.rawValue)'" }.joined(separator: ",")
        return "__dppxMeasure([\(widths.map(String.init).joined(separator: ","))], \(settle), [\(modes)], \(max(0, quiet)), \(styles), \(asWritten), \(imageSets))"
    }

    /// `text` as a JavaScript string literal: its JSON string (JSON is JavaScript's literal
    /// syntax, U+2028 and U+2029 included since ES2019).
    static func javaScriptString(_ text: String) -> String {
        JSONValue.string(text).text
    }
}
