/**
 * Every element that shows a result's presigned URL asks for it in CORS mode. The zip ("Download selected") fetches the
 * same URLs, and the browser's HTTP cache hands that fetch whatever the <img> or <video> stored: storage adds
 * `Access-Control-Allow-Origin` and `Vary: Origin` only to a request that carries an Origin (S3 does exactly this), so a
 * no-CORS load would be cached without them and the zip's fetch of it blocked. Loaded in CORS mode, the cached copy is
 * one the zip may read, and nothing is downloaded twice.
 */
export const MEDIA_CROSS_ORIGIN = 'anonymous';
