import { options, type Ref, type VNode } from 'preact';

/**
 * The app is written against React's API and runs on Preact (`preact/compat`, decision 054). Where the two differ in
 * what a page does, this makes Preact do what React does; main.tsx and the unit tests' setup load it first.
 *
 * `autoFocus`: React focuses a button, input, select or textarea with `autoFocus` as it mounts it, and writes no
 * attribute. Preact writes the `autofocus` attribute, which a browser honours only for the page it loads, not for an
 * element a screen adds later (a dialog's first field, a form shown by a link), so nothing would be focused.
 */

const FOCUSABLE = new Set(['button', 'input', 'select', 'textarea']);

/** Elements focused for their `autoFocus`: once each, as they are mounted, not on every render. */
const focusedOnMount = new WeakSet<HTMLElement>();

function focusOnce(element: HTMLElement | null) {
  if (!element || focusedOnMount.has(element)) return;
  focusedOnMount.add(element);
  element.focus();
}

type ElementRef = Ref<HTMLElement>;

/** One wrapper per ref: a new ref on each render would make Preact detach and attach it every time. */
const wrappers = new WeakMap<object, ElementRef>();

function focusingRef(ref: ElementRef | null | undefined): ElementRef {
  if (!ref) return focusOnce;
  let wrapper = wrappers.get(ref);
  if (!wrapper) {
    wrapper = (element: HTMLElement | null) => {
      focusOnce(element);
      if (typeof ref === 'function') return ref(element);
      ref.current = element;
    };
    wrappers.set(ref, wrapper);
  }
  return wrapper;
}

const previousVNode = options.vnode;
options.vnode = (vnode: VNode) => {
  const props = vnode.props as Record<string, unknown> | null;
  if (typeof vnode.type === 'string' && props && 'autoFocus' in props) {
    const autoFocus = props.autoFocus;
    delete props.autoFocus;
    if (autoFocus && FOCUSABLE.has(vnode.type)) vnode.ref = focusingRef(vnode.ref as ElementRef | undefined);
  }
  previousVNode?.(vnode);
};
