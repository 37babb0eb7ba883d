/**
 * The router's matching without testing every route. @koa/router matches a request by testing the regular expression
 * of each of its routes (about 160) in turn (with a debug call each): a tenth of the CPU of a request that does little else.
 * This index narrows the routes tested to those whose path can match: a tree of the routes' leading segments (a
 * literal segment, or a `:param` standing for any one segment), walked with the request's segments. Each route sits
 * at the node where its path stops being indexable (its end, or a segment of another form), and is a candidate for
 * every request whose walk passes that node. The candidates then go through @koa/router's own matching, in the order
 * they were registered, so what matches (and `ctx.matched`, `allowedMethods`' 405 and 501) is exactly as before.
 */
import Router from '@koa/router';

type Layer = Router['stack'][number];
type Node = { layers: number[]; literal: Map<string, Node>; param: Node | null };

/** A segment matched literally: characters path-to-regexp treats as plain text. */
const LITERAL = /^[A-Za-z0-9._~-]+$/;
/** A segment that is one parameter (`:name`), which matches any one non-empty segment. */
const PARAM = /^:[A-Za-z_$][A-Za-z0-9_$]*$/;

const node = (): Node => ({ layers: [], literal: new Map(), param: null });

function build(stack: readonly Layer[], sensitive: boolean): Node {
  const root = node();
  stack.forEach((layer, index) => {
    let at = root;
    // A path that is not a string, one given as a raw regular expression (`pathAsRegExp`: unanchored, `.` any
    // character), a route of other options than the router's, or a path not starting with "/" is tested for every
    // request (at the root).
    const opts = layer.opts as { sensitive?: boolean; pathAsRegExp?: boolean };
    if (typeof layer.path === 'string' && layer.path.startsWith('/') && opts.pathAsRegExp !== true && Boolean(opts.sensitive) === sensitive) {
      for (const segment of layer.path.slice(1).split('/')) {
        if (LITERAL.test(segment)) {
          const key = sensitive ? segment : segment.toLowerCase();
          let next = at.literal.get(key);
          if (!next) at.literal.set(key, (next = node()));
          at = next;
        } else if (PARAM.test(segment)) at = at.param ??= node();
        else break;
      }
    }
    at.layers.push(index);
  });
  return root;
}

/** The indexes (in `stack`) of the layers whose path may match `path`, in ascending order. */
function candidates(root: Node, path: string, sensitive: boolean): number[] {
  const found: number[] = [];
  const segments = path.slice(1).split('/');
  const walk = (at: Node, depth: number) => {
    for (const index of at.layers) found.push(index);
    const segment = segments[depth];
    if (segment === undefined) return;
    const literal = at.literal.get(sensitive ? segment : segment.toLowerCase());
    if (literal) walk(literal, depth + 1);
    if (at.param && segment !== '') walk(at.param, depth + 1);
  };
  if (path.startsWith('/')) walk(root, 0);
  else found.push(...root.layers);
  return found.sort((a, b) => a - b);
}

/**
 * Makes `router` match through the index, built again whenever its routes changed since: another stack, another
 * length, or a route whose path changed (`router.prefix()` after the index was built).
 */
export function indexRoutes(router: Router): void {
  const match = Router.prototype.match;
  const sensitive = Boolean(router.opts.sensitive);
  let root: Node | null = null;
  let indexedStack: Layer[] | null = null;
  let indexedPaths: unknown[] = [];
  const changed = (stack: Layer[]) =>
    indexedStack !== stack || indexedPaths.length !== stack.length || stack.some((layer, index) => layer.path !== indexedPaths[index]);
  // The router as @koa/router's match sees it, with the candidates for its stack (matching is synchronous: one view
  // serves every request).
  const view = Object.create(router) as Router;
  router.match = function matchIndexed(path: string, method: string) {
    const stack = router.stack;
    if (!root || changed(stack)) {
      root = build(stack, sensitive);
      indexedStack = stack;
      indexedPaths = stack.map((layer) => layer.path);
    }
    view.stack = candidates(root, path, sensitive).map((index) => stack[index]!);
    return match.call(view, path, method);
  };
}
