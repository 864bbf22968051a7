/** Fixed ids of the embedded stack, so the pool, its tokens and the web config survive a restart. */
export const LOCAL_IDS = {
  region: 'us-east-1',
  userPoolId: 'us-east-1_FramewrightLocal',
  userPoolClientId: 'framewrightlocalwebclient',
  tableName: 'framewright',
  mediaBucket: 'framewright-media',
  from: 'no-reply@framewright.local',
  support: 'support@framewright.local',
} as const;
