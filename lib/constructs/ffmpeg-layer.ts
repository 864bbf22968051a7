import * as fs from 'node:fs';
import * as path from 'node:path';
import { DockerImage, Stack } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { REPO_ROOT, SettingsError } from '../settings';

/** The static linux-x64 ffmpeg that @ffmpeg-installer/linux-x64 ships inside its npm package (no download). */
export const FFMPEG_BINARY = path.join(REPO_ROOT, 'node_modules/@ffmpeg-installer/linux-x64/ffmpeg');
/** Where the layer puts it: layers are mounted at /opt. */
export const FFMPEG_IN_LAYER = '/opt/bin/ffmpeg';

/**
 * The ffmpeg layer, one per stack, made on first use: only functions that declare `ffmpeg` in the contract attach
 * it (and run on x86_64, the binary's architecture). Built by copying the installed binary, no Docker.
 */
export function ffmpegLayer(scope: Construct): lambda.ILayerVersion {
  const stack = Stack.of(scope);
  const existing = stack.node.tryFindChild('FfmpegLayer') as lambda.LayerVersion | undefined;
  if (existing) return existing;
  if (!fs.existsSync(FFMPEG_BINARY)) {
    throw new SettingsError(
      `${path.relative(REPO_ROOT, FFMPEG_BINARY)} is missing (npm installs it only on linux-x64): run \`npm install --no-save --force @ffmpeg-installer/linux-x64@4.1.0\` first`,
    );
  }
  return new lambda.LayerVersion(stack, 'FfmpegLayer', {
    description: 'ffmpeg 4.1 static (linux x64), from @ffmpeg-installer/linux-x64, at /opt/bin/ffmpeg',
    compatibleArchitectures: [lambda.Architecture.X86_64],
    compatibleRuntimes: [lambda.Runtime.NODEJS_24_X],
    code: lambda.Code.fromAsset(path.dirname(FFMPEG_BINARY), {
      bundling: {
        // Never used: the local copy below always succeeds.
        image: DockerImage.fromRegistry('public.ecr.aws/docker/library/busybox'),
        local: {
          tryBundle(outputDir) {
            fs.mkdirSync(path.join(outputDir, 'bin'), { recursive: true });
            fs.copyFileSync(FFMPEG_BINARY, path.join(outputDir, 'bin/ffmpeg'));
            fs.chmodSync(path.join(outputDir, 'bin/ffmpeg'), 0o755);
            return true;
          },
        },
      },
    }),
  });
}
