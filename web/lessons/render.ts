// Lesson prose: Markdown through marked, then DOMPurify, into a DocumentFragment. No HTML string
// ever reaches the page: DOMPurify returns DOM nodes (RETURN_DOM_FRAGMENT), and links open in
// place only when they stay on this site.
import DOMPurify from 'dompurify';
import { Marked } from 'marked';

const marked = new Marked({ gfm: true, breaks: false, async: false });

// Only what prose needs: no images from elsewhere, no forms, no scripts, no styles.
const ALLOWED_TAGS = ['p', 'em', 'strong', 'code', 'pre', 'a', 'ul', 'ol', 'li', 'blockquote', 'h3', 'h4', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'br', 'hr', 'sup', 'sub', 'kbd'];
const ALLOWED_ATTR = ['href', 'title'];

export function renderProse(markdown: string): DocumentFragment {
  const html = marked.parse(markdown) as string;
  const frag = DOMPurify.sanitize(html, { ALLOWED_TAGS, ALLOWED_ATTR, RETURN_DOM_FRAGMENT: true });
  for (const a of frag.querySelectorAll('a')) {
    const href = a.getAttribute('href') ?? '';
    if (/^https?:/i.test(href)) {
      a.setAttribute('rel', 'noopener noreferrer');
      a.setAttribute('target', '_blank');
    }
  }
  return frag;
}
