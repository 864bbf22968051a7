import { Outlet } from 'react-router-dom';
import { MarketingFrame } from './marketing-frame';

/** The app's route layout of the marketing pages (the light marketing entry renders MarketingFrame itself). */
export function MarketingLayout() {
  return (
    <MarketingFrame>
      <Outlet />
    </MarketingFrame>
  );
}

export default MarketingLayout;
