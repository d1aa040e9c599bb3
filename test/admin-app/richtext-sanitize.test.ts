// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { cleanPastedHtml, isSafeImageUrl, isSafeLinkUrl, sanitizeWysiwyg } from '../../src/admin/editor/richtext/sanitize.js';

// The wysiwyg sanitiser (DOMPurify) on jsdom: exactly the contract's allowlist of tags and per-tag
// attributes, safe URL schemes only, and the paste clean-up for Word and web pages.

const s = sanitizeWysiwyg;

describe('sanitizeWysiwyg: tags', () => {
  it('keeps every allowed tag', () => {
    const html = '<p>p</p><h1>1</h1><h2>2</h2><h3>3</h3><h4>4</h4><h5>5</h5><h6>6</h6><blockquote>q</blockquote>'
      + '<pre><code>c</code></pre><ul><li>u</li></ul><ol><li>o</li></ol><p>a<br>b</p><hr>'
      + '<p><strong>st</strong><b>b</b><em>em</em><i>i</i><u>u</u><s>s</s><del>d</del><a href="/x">a</a><span>sp</span><code>c</code></p>'
      + '<p><img src="/i.png"></p>';
    expect(s(html)).toBe(html);
  });

  it('drops disallowed tags, keeping their text except for script, style and the like', () => {
    expect(s('<div>d</div><table><tr><td>t</td></tr></table><section><article>x</article></section>')).toBe('dtx');
    expect(s('<p>a<script>alert(1)</script>b<style>p{}</style>c</p>')).toBe('<p>abc</p>');
    expect(s('<p><sup>1</sup><sub>2</sub><mark>3</mark><font color="red">4</font><ins>5</ins><strike>6</strike></p>')).toBe('<p>123456</p>');
    expect(s('<iframe src="https://evil.test"></iframe><object data="x"></object><embed src="x"><form><input value="v"><button>b</button></form>')).toBe('b');
    expect(s('<svg><circle onload="alert(1)"/></svg><math><mi>x</mi></math><p>ok</p>')).not.toMatch(/svg|circle|math|onload/);
    expect(s('<p>a<!-- comment -->b</p>')).toBe('<p>ab</p>');
    expect(s('<h7>x</h7><o:p>y</o:p>')).toBe('xy');
  });
});

describe('sanitizeWysiwyg: attributes per tag', () => {
  it('keeps a href/target/rel/title and img src/alt/title/width/height', () => {
    expect(s('<a href="https://example.com/" target="_self" rel="nofollow" title="T">x</a>'))
      .toBe('<a href="https://example.com/" target="_self" rel="nofollow" title="T">x</a>');
    expect(s('<img src="https://example.com/a.png" alt="A" title="T" width="100" height="50%">'))
      .toBe('<img src="https://example.com/a.png" alt="A" title="T" width="100" height="50%">');
  });

  it('keeps class and style on span, p, h1-h6 and blockquote', () => {
    for (const tag of ['span', 'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote']) {
      const html = `<${tag} class="lead big" style="color: red; text-align: center">x</${tag}>`;
      expect(s(html)).toBe(html);
    }
  });

  it('keeps only class on pre, code, ul, ol and li', () => {
    expect(s('<pre class="language-js" style="color: red"><code class="language-js" style="x: y">c</code></pre>'))
      .toBe('<pre class="language-js"><code class="language-js">c</code></pre>');
    expect(s('<ul class="a" style="color: red"><li class="b" style="color: red">x</li></ul><ol class="c" start="3" type="a"><li>y</li></ol>'))
      .toBe('<ul class="a"><li class="b">x</li></ul><ol class="c"><li>y</li></ol>');
  });

  it('drops an allowed attribute on a tag that may not carry it', () => {
    expect(s('<a href="/x" class="c" style="color: red" width="3">x</a>')).toBe('<a href="/x">x</a>');
    expect(s('<img src="/i.png" class="c" style="width: 1px" href="/x">')).toBe('<img src="/i.png">');
    expect(s('<p title="t" href="/x" src="/y" alt="a">x</p><strong class="c" style="color: red">b</strong><em title="t">i</em>'))
      .toBe('<p>x</p><strong>b</strong><em>i</em>');
    expect(s('<span title="t" alt="a">x</span><hr class="c"><br style="x: y"><code style="color: red">c</code>'))
      .toBe('<span>x</span><hr><br><code>c</code>');
  });

  it('drops event handlers, ids, data-* and aria-* attributes', () => {
    expect(s('<p id="i" onclick="alert(1)" data-x="1" aria-label="l" lang="en" dir="rtl">x</p>')).toBe('<p>x</p>');
    expect(s('<img src=x onerror=alert(1)>')).toBe('<img src="x">');
    expect(s('<a href="/x" onmouseover="alert(1)">x</a>')).toBe('<a href="/x">x</a>');
  });

  it('checks attribute values: dimensions are numbers, target is a window name, styles and classes are clean', () => {
    expect(s('<img src="/i.png" width="100px; x" height="auto">')).toBe('<img src="/i.png">');
    expect(s('<a href="/x" target="evil">x</a>')).toBe('<a href="/x">x</a>');
    expect(s('<a href="/x" target="_blank">x</a>')).toBe('<a href="/x" target="_blank" rel="noopener noreferrer">x</a>');
    expect(s('<p style="background: url(javascript:alert(1)); color: red; mso-line-height: 1; width: expression(alert(1))">x</p>'))
      .toBe('<p style="color: red">x</p>');
    expect(s('<p style="mso-margin-top-alt: auto">x</p>')).toBe('<p>x</p>');
    expect(s('<p class="MsoNormal lead">x</p>')).toBe('<p class="lead">x</p>');
  });
});

describe('sanitizeWysiwyg: URLs', () => {
  it('keeps relative, http(s), mailto and tel links and drops every other scheme', () => {
    for (const href of ['/a', 'page', '#top', '?q=1', '../x', 'https://example.com/', 'http://example.com', 'mailto:a@example.com', 'tel:+123']) {
      expect(s(`<a href="${href}">x</a>`)).toBe(`<a href="${href}">x</a>`);
    }
    for (const href of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', ' javascript:alert(1)', 'java\tscript:alert(1)', 'jav&#x09;ascript:alert(1)',
      'vbscript:msgbox(1)', 'data:text/html,<script>alert(1)</script>', 'file:///etc/passwd', 'ftp://example.com']) {
      expect(s(`<a href="${href}">x</a>`)).toBe('<a>x</a>');
    }
  });

  it('keeps relative and http(s) images and drops data:, javascript: and other sources', () => {
    expect(s('<img src="https://example.com/a.png">')).toBe('<img src="https://example.com/a.png">');
    for (const src of ['data:image/png;base64,iVBORw0KGgo=', 'javascript:alert(1)', 'file:///c:/x.png', 'blob:https://example.com/1']) {
      expect(s(`<img src="${src}" alt="a">`)).toBe('<img alt="a">');
    }
    expect(isSafeLinkUrl('mailto:x@example.com')).toBe(true);
    expect(isSafeLinkUrl('javascript:x')).toBe(false);
    expect(isSafeImageUrl('data:image/png;base64,AA')).toBe(false);
    expect(isSafeImageUrl('/media/a.png')).toBe(true);
  });

  it('saves the hostile paste samples clean', () => {
    expect(cleanPastedHtml('<img src=x onerror=alert(1)>')).toBe('<img src="x">');
    expect(cleanPastedHtml('<a href="javascript:alert(1)">x</a>')).toBe('<a>x</a>');
    expect(cleanPastedHtml('<script>alert(1)</script>')).toBe('');
  });
});

describe('cleanPastedHtml', () => {
  it('keeps the structure of a Word document and drops its look', () => {
    const word = `<html xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:w="urn:schemas-microsoft-com:office:word">
<head><meta name=Generator content="Microsoft Word 15"><style><!-- p.MsoNormal {margin:0cm;} --></style></head>
<body lang=EN-GB style='tab-interval:36.0pt'>
<!--StartFragment-->
<h1 style='mso-style-name:"Heading 1"'><span lang=EN-GB>Quarterly report<o:p></o:p></span></h1>
<p class=MsoNormal style='margin-bottom:0cm;mso-add-space:auto'><b><span style='font-size:12.0pt;mso-bidi-font-size:11.0pt'>Bold</span></b> and <i>italic</i> and <u>underlined</u> text, a <a href="https://example.com/report">link</a>.<o:p></o:p></p>
<p class=MsoListParagraphCxSpFirst style='text-indent:-18.0pt;mso-list:l0 level1 lfo1'><![if !supportLists]><span style='font-family:Symbol;mso-fareast-font-family:Symbol'><span style='mso-list:Ignore'>·<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;&nbsp; </span></span></span><![endif]>First point<o:p></o:p></p>
<p class=MsoListParagraphCxSpMiddle style='margin-left:72.0pt;mso-list:l0 level2 lfo1'><![if !supportLists]><span style='font-family:"Courier New"'>o<span>&nbsp;&nbsp; </span></span><![endif]>Nested point<o:p></o:p></p>
<p class=MsoListParagraphCxSpLast style='text-indent:-18.0pt;mso-list:l0 level1 lfo1'><![if !supportLists]><span style='font-family:Symbol'>·<span>&nbsp;&nbsp; </span></span><![endif]>Second point<o:p></o:p></p>
<p class=MsoNormal><o:p>&nbsp;</o:p></p>
<p class=MsoListParagraph style='text-indent:-18.0pt;mso-list:l1 level1 lfo2'><![if !supportLists]><span>1.<span>&nbsp;&nbsp; </span></span><![endif]>Step one<o:p></o:p></p>
<table class=MsoTableGrid border=1><tr><td width=300 style='width:150pt'><p class=MsoNormal>Cell A<o:p></o:p></p></td><td><p class=MsoNormal>Cell B</p></td></tr></table>
<!--EndFragment-->
</body></html>`;
    const out = cleanPastedHtml(word);
    expect(out).not.toMatch(/mso|Mso|class=|style=|o:p|<!--|lang=|font-family|supportLists|Generator/);
    expect(out).toContain('<h1><span>Quarterly report</span></h1>');
    expect(out).toContain('<b><span>Bold</span></b> and <i>italic</i> and <u>underlined</u> text, a <a href="https://example.com/report">link</a>.');
    expect(out).toContain('<ul><li>First point<ul><li>Nested point</li></ul></li><li>Second point</li></ul>');
    expect(out).toContain('<ol><li>Step one</li></ol>');
    expect(out).toContain('<p>Cell A</p><p>Cell B</p>');
    expect(out).not.toContain('·');
  });

  it('turns a web page\'s layout into paragraphs and styled spans into marks', () => {
    const web = '<div class="post" style="color: #333"><div>Intro line</div><table><tr><td>A</td><th>B</th></tr></table>'
      + '<p><span style="font-weight: 700">heavy</span> <span style="font-style: italic">slanted</span></p>'
      + '<pre class="language-ts highlight"><code class="language-ts">let x = 1;</code></pre>'
      + '<button onclick="x()">Buy</button><img src="data:image/png;base64,AAAA" alt="pixel"></div>';
    expect(cleanPastedHtml(web)).toBe('<p>Intro line</p><p>A</p><p>B</p><p><span><strong>heavy</strong></span> <span><em>slanted</em></span></p>'
      + '<pre class="language-ts"><code class="language-ts">let x = 1;</code></pre>Buy<img alt="pixel">');
  });

  it('unwraps the Google Docs wrapper', () => {
    expect(cleanPastedHtml('<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-1234"><p dir="ltr"><span style="font-weight:700">Title</span></p></b>'))
      .toBe('<p><span><strong>Title</strong></span></p>');
  });
});
