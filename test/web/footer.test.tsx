import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { Footer } from '../../web/src/app/layouts/footer';

function renderFooter() {
  return render(
    <MemoryRouter>
      <Footer />
    </MemoryRouter>,
  );
}

describe('Footer', () => {
  afterEach(() => jest.restoreAllMocks());

  it('shows the copyright line with the current year', () => {
    renderFooter();
    const year = new Date().getFullYear();
    expect(screen.getByRole('contentinfo')).toHaveTextContent(`© ${year} Framewright. All rights reserved.`);
  });

  it('computes the year at render time rather than hard-coding it', () => {
    jest.spyOn(Date.prototype, 'getFullYear').mockReturnValue(2031);
    renderFooter();
    expect(screen.getByText('© 2031 Framewright. All rights reserved.')).toBeInTheDocument();
  });
});
