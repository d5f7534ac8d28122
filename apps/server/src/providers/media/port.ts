/** Where media bytes live: a local folder by default; an S3-compatible store when scaled out. */
export interface MediaStorePort {
  readonly name: string;
  put(key: string, bytes: Uint8Array, mime: string): Promise<void>;
  get(key: string): Promise<Buffer | null>;
  delete(key: string): Promise<void>;
}
