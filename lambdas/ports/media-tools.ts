/** What a saved video is: read from the file itself, not from what the model was asked for. */
export interface VideoInfo {
  durationSeconds: number;
  width: number;
  height: number;
  fps: number;
  frames: number;
}

/** A video the tools could not read, cut or join (a broken or unexpected file): the job fails and is refunded. */
export class MediaToolFailed extends Error {}

/**
 * Video tools a job's save needs (ffmpeg in Lambda: adapters/ffmpeg-media-tools.ts). Every call works on bytes,
 * ends within the adapter's time limit, leaves no file behind and throws MediaToolFailed for a file it cannot use.
 */
export interface MediaTools {
  probe(video: Buffer): Promise<VideoInfo>;
  /**
   * Decodes every frame of the first video stream and answers what probe does, with `frames` the count decoded; any
   * error on the way (a cut file, a damaged frame, not a video at all) is a MediaToolFailed.
   */
  check(video: Buffer): Promise<VideoInfo>;
  /** The video's last frame, as a PNG (the next segment's start image). */
  lastFrame(video: Buffer): Promise<Buffer>;
  /** A poster frame (about one second in, or the middle of a shorter clip), as a JPEG at the video's size. */
  poster(video: Buffer): Promise<Buffer>;
  /**
   * The segments as one H.264 MP4 at the first one's size and frame rate. Each later segment starts from the one
   * before's last frame, so its own first frame (a copy of that one) is dropped.
   */
  join(segments: readonly Buffer[]): Promise<Buffer>;
}
