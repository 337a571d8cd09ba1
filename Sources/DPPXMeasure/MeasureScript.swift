/// The script evaluated in a page at each viewport, once: it forces layout and returns, as
/// JSON text, every marked `<img>`'s box and every background layer that paints a `url()`, with
/// the layer's computed size, its positioning area and the image's natural size.
///
/// The positioning area is the padding box, or the border or content box per
/// `background-origin`; the viewport for `background-attachment: fixed`.
enum MeasureScript {
    static let source = #"""
    (async () => {
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
      const images = [];
      for (const image of document.querySelectorAll('img[data-dppx-at]')) {
        const box = image.getBoundingClientRect();
        images.push([Number(image.getAttribute('data-dppx-at')), box.width, box.height, image.getAttribute('src') || '']);
      }
      const backgrounds = [];
      const natural = new Map();
      for (const element of document.querySelectorAll('*')) {
        const style = getComputedStyle(element);
        if (!style.backgroundImage.includes('url(')) continue;
        const layers = split(style.backgroundImage), sizes = split(style.backgroundSize);
        const origins = split(style.backgroundOrigin), attachments = split(style.backgroundAttachment);
        const box = element.getBoundingClientRect();
        const px = (name) => parseFloat(style.getPropertyValue(name)) || 0;
        layers.forEach((layer, index) => {
          const match = /^url\(\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|([^)]*?))\s*\)$/.exec(layer);
          if (!match) return;
          const url = (match[1] ?? match[2] ?? match[3]).replace(/\\(.)/g, '$1');
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
          backgrounds.push([pathOf(element), index, url, sizes[index % sizes.length], width, height]);
          natural.set(url, [0, 0]);
        });
      }
      await Promise.all([...natural.keys()].map((url) => new Promise((done) => {
        const probe = new Image();
        probe.onload = () => { natural.set(url, [probe.naturalWidth, probe.naturalHeight]); done(); };
        probe.onerror = () => done();
        probe.src = url;
      })));
      return JSON.stringify({
        viewport: innerWidth,
        clientWidth: document.documentElement.clientWidth,
        height: document.documentElement.getBoundingClientRect().height,
        images,
        backgrounds: backgrounds.map((layer) => layer.concat(natural.get(layer[2]))),
      });
    })()
    """#
}
