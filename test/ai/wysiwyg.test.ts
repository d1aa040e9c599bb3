import { describe, expect, it } from 'vitest';
import { sanitizeWysiwyg } from '../../src/lib/wysiwyg.js';

/** The contract's wysiwyg allowlist, applied to HTML from a model (untrusted). */
describe('sanitizeWysiwyg', () => {
  it('keeps the allowed tags and attributes', () => {
    const kept = '<h2 class="lead" style="color:red">T</h2><p class="x">A <a href="https://x.test" target="_blank" rel="noopener" title="t">link</a> '
      + '<span class="k">s</span><br /><em>e</em> <i>i</i> <u>u</u> <s>s</s> <del>d</del> <b>b</b> <strong>s</strong></p>'
      + '<ul class="l"><li class="i">one</li></ul><ol><li>two</li></ol><blockquote class="q">q</blockquote><pre class="p"><code class="c">x</code></pre><hr />'
      + '<img src="https://x.test/a.png" alt="a" title="t" width="10" height="5" />';
    expect(sanitizeWysiwyg(kept)).toBe(kept);
  });

  it('drops scripts, styles, frames, handlers, unknown attributes and unsafe addresses', () => {
    expect(sanitizeWysiwyg('<p onclick="x()" id="a" data-x="1">Hi</p><script>alert(1)</script><style>p{}</style><iframe src="https://x"></iframe>'))
      .toBe('<p>Hi</p>');
    expect(sanitizeWysiwyg('<a href="javascript:alert(1)">x</a><img src="data:image/png;base64,AA" /><li style="color:red">l</li>'))
      .toBe('<a>x</a><img /><li>l</li>');
    expect(sanitizeWysiwyg('<div><table><tr><td>cell</td></tr></table></div>')).toBe('cell');
  });
});
