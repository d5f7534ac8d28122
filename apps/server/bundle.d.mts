export function bundleServer(
  entryPoints: Record<string, string>,
  outdir: string,
  o?: { sourcemap?: boolean; dev?: boolean },
): Promise<void>;
