/**
 * Written by `npm run showcase` (scripts/showcase.ts); do not edit. What made each file of contract/showcase.ts under
 * web/public/media: `simulator` renders are placeholders (moving shapes), `replicate` ones the model's real output.
 */
import type { ShowcaseRender } from '../../../../contract/showcase';

export const SHOWCASE_RENDERS: Readonly<Record<string, ShowcaseRender>> = {
  "wan-i2v-start": {
    "provider": "simulator",
    "model": "stability-ai/sdxl",
    "predictionId": "eqc4vr47qubru3lqz2nzremfhx",
    "width": 768,
    "height": 768,
    "bytes": 15464,
    "renderedAt": "2026-11-24T03:00:45.776Z"
  },
  "hero": {
    "provider": "simulator",
    "model": "wavespeedai/wan-2.1-t2v-480p",
    "predictionId": "k3rlxpffteks3ilhzi66ml6dqz",
    "width": 832,
    "height": 480,
    "bytes": 253327,
    "renderedAt": "2026-11-24T02:52:46.271Z"
  },
  "wan-t2v": {
    "provider": "simulator",
    "model": "wavespeedai/wan-2.1-t2v-480p",
    "predictionId": "257g7ihg2xcjwhewctmbgi6ukh",
    "width": 832,
    "height": 480,
    "bytes": 233672,
    "renderedAt": "2026-11-24T02:52:49.254Z"
  },
  "wan-i2v": {
    "provider": "simulator",
    "model": "wavespeedai/wan-2.1-i2v-480p",
    "predictionId": "ert3ectvquxzad3vruwxafe5dl",
    "width": 624,
    "height": 624,
    "bytes": 270713,
    "renderedAt": "2026-11-24T03:00:53.885Z"
  },
  "pixverse-720p": {
    "provider": "simulator",
    "model": "pixverse/pixverse-v4.5",
    "predictionId": "vk5ddny2hy7izmopyikpophlih",
    "width": 1280,
    "height": 720,
    "bytes": 427634,
    "renderedAt": "2026-11-24T02:52:57.358Z"
  },
  "pixverse-540p-long": {
    "provider": "simulator",
    "model": "pixverse/pixverse-v4.5",
    "predictionId": "wndgpciwbriqfktu2yyq4iqxxf",
    "width": 960,
    "height": 540,
    "bytes": 382030,
    "renderedAt": "2026-11-24T02:53:02.341Z"
  },
  "auth-loop": {
    "provider": "simulator",
    "model": "wavespeedai/wan-2.1-t2v-480p",
    "predictionId": "vq376dnrvy226sspcr4qbmfoaw",
    "width": 832,
    "height": 480,
    "bytes": 277403,
    "renderedAt": "2026-11-24T02:53:07.313Z"
  }
};
