import { stopStackProcess } from './start-stack';

export default async function globalTeardown(): Promise<void> {
  if (process.env.FW_TEST_PID) await stopStackProcess(Number(process.env.FW_TEST_PID), process.env.FW_TEST_DATA);
}
