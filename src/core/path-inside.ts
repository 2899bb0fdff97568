/**
 * "Is this path inside that folder", answered once. `path.relative(folder, target)` leads
 * outside only as `..` itself, `..` followed by a separator, or (Windows, another drive) an
 * absolute path: a child whose name starts with two dots (`..data`, the folder a Kubernetes
 * ConfigMap volume links its files through) is inside, which a `startsWith('..')` test denies.
 */
import { isAbsolute, sep } from 'node:path';

/** Whether a `path.relative(folder, target)` result names the folder itself or something below it. */
export function relativeLeadsInside(relative: string): boolean {
  return relative !== '..' && !relative.startsWith(`..${sep}`) && !isAbsolute(relative);
}
