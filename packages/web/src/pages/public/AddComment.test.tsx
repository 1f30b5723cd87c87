import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { addComment, getToiletCard } from '../../api/comments.ts';
import { RouterNav } from '../../navigation/RouterNav.tsx';
import { toiletIdOf, VISITOR_KEY } from './add-comment.ts';
import AddComment from './AddComment.tsx';

vi.mock(import('../../api/comments.ts'), async (original) => ({
  ...(await original()),
  getToiletCard: vi.fn(),
  addComment: vi.fn(),
}));

/** A toilet's public id, as its QR code carries it. */
const PID = 'q7Xk2bN9cR4tV1mZ8wYs3A';
const CARD = {
  toilet_id: PID,
  name: '西湖公厕',
  address: '杭州市北山街 1 号',
  star_average: 4.5,
  star_count: 2,
};

function open(path: string) {
  const router = createMemoryRouter(
    [
      {
        path: '/add-comment',
        element: (
          <RouterNav>
            <AddComment />
          </RouterNav>
        ),
      },
      { path: '/agreement', element: <p>statement page</p> },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

/** The server's refusal of a call: its code and message, no data. */
const refusal = (code: number, message: string) => ({ code, message, data: null as never });

/** The page of the PID toilet once its card has loaded. */
async function openToilet() {
  open(`/add-comment?toilet_id=${PID}`);
  await screen.findByRole('heading', { name: '西湖公厕' });
}

beforeEach(() => {
  vi.mocked(getToiletCard).mockReset();
  vi.mocked(addComment).mockReset();
  vi.mocked(getToiletCard).mockResolvedValue({ code: 200, message: '成功', data: CARD });
});

describe('add-comment page', { timeout: 15_000 }, () => {
  it('rates 2 stars with 有异味 and text, and thanks the visitor with the star they gave', async () => {
    vi.mocked(addComment).mockResolvedValue({
      code: 200,
      message: '成功',
      data: { id: 1, star_level: 2, toilet: { ...CARD, star_average: 3.7, star_count: 3 } },
    });
    open(`/add-comment?toilet_id=${PID}`);
    expect(await screen.findByRole('heading', { name: '西湖公厕' })).toBeTruthy();
    expect(screen.getByText('4.5')).toBeTruthy();
    expect(getToiletCard).toHaveBeenCalledWith(PID);

    expect(screen.getByRole('radio', { name: '5 星 优' }).getAttribute('aria-checked')).toBe('true');
    fireEvent.click(screen.getByRole('radio', { name: '2 星 差' }));
    expect(screen.getByText('差')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('有异味'));
    fireEvent.change(screen.getByLabelText('说说您的感受（选填）'), { target: { value: '味道很大' } });
    expect(screen.getByText('4/200')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '提交评价' }));

    expect(await screen.findByText('感谢您的评价！')).toBeTruthy();
    expect(screen.getByText('2 星 · 差')).toBeTruthy();
    expect(screen.getByRole('img', { name: '2 星' })).toBeTruthy();
    expect(screen.getByText('当前综合评分 3.7（3 人评价）')).toBeTruthy();
    const visitor = localStorage.getItem(VISITOR_KEY);
    expect(visitor).toMatch(/^[0-9a-f]{32}$/);
    expect(addComment).toHaveBeenCalledWith({
      toilet_id: PID,
      star_level: 2,
      badattitude: false,
      inefficiency: false,
      poorsanitary: false,
      smelly: true,
      content: '味道很大',
      sex: 0,
      visitor_id: visitor,
    });
  });

  it('starts at 5 stars (SPEC §3), so 提交评价 alone sends a 5-star review', async () => {
    vi.mocked(addComment).mockResolvedValue({
      code: 200,
      message: '成功',
      data: { id: 2, star_level: 5, toilet: CARD },
    });
    await openToilet();
    expect(screen.getByText('优')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '提交评价' }));
    expect(await screen.findByText('5 星 · 优')).toBeTruthy();
    expect(vi.mocked(addComment).mock.calls[0]![0]).toMatchObject({ star_level: 5 });
  });

  it('shows the limit message inline and keeps what was written', async () => {
    vi.mocked(addComment).mockResolvedValue(
      refusal(429, '您在1小时内已对该厕所评价3次，感谢您的反馈，请稍后再评价'),
    );
    await openToilet();
    fireEvent.click(screen.getByRole('radio', { name: '5 星 优' }));
    fireEvent.change(screen.getByLabelText('说说您的感受（选填）'), { target: { value: '很好' } });
    fireEvent.click(screen.getByRole('button', { name: '提交评价' }));
    expect((await screen.findByRole('alert')).textContent).toContain('已对该厕所评价3次');
    expect((screen.getByLabelText('说说您的感受（选填）') as HTMLTextAreaElement).value).toBe('很好');
  });

  it('says so when the network fails on submit', async () => {
    vi.mocked(addComment).mockRejectedValue(new Error('Network Error'));
    await openToilet();
    fireEvent.click(screen.getByRole('radio', { name: '3 星 中' }));
    fireEvent.click(screen.getByRole('button', { name: '提交评价' }));
    expect((await screen.findByRole('alert')).textContent).toBe('网络错误，请检查网络后重试');
  });

  it('explains a missing toilet id without calling the server', () => {
    open('/add-comment');
    expect(screen.getByRole('alert').textContent).toContain('缺少厕所编号');
    expect(getToiletCard).not.toHaveBeenCalled();
  });

  it('does not look a toilet up by its internal number (those count up and are refused)', () => {
    open('/add-comment?toilet_id=7');
    expect(screen.getByRole('alert').textContent).toContain('编号无效');
    expect(getToiletCard).not.toHaveBeenCalled();
  });

  it('shows the server message for a toilet that is gone, and a retry for a network failure', async () => {
    vi.mocked(getToiletCard).mockResolvedValueOnce(refusal(404, '厕所不存在或已停用，请扫描厕所内的二维码'));
    open('/add-comment?toilet_id=AAAAAAAAAAAAAAAAAAAAAA');
    expect((await screen.findByRole('alert')).textContent).toContain('厕所不存在或已停用');
    expect(screen.queryByRole('button', { name: '重新加载' })).toBeNull();
  });

  it('offers to reload after a network failure', async () => {
    vi.mocked(getToiletCard).mockRejectedValueOnce(new Error('Network Error'));
    open(`/add-comment?toilet_id=${PID}`);
    fireEvent.click(await screen.findByRole('button', { name: '重新加载' }));
    expect(await screen.findByRole('heading', { name: '西湖公厕' })).toBeTruthy();
  });

  it('stops the text at 200 characters and links the statement page', async () => {
    await openToilet();
    fireEvent.change(screen.getByLabelText('说说您的感受（选填）'), { target: { value: '好'.repeat(250) } });
    expect(screen.getByText('200/200')).toBeTruthy();
    expect(screen.getByRole('link', { name: '《用户协议与隐私声明》' }).getAttribute('href')).toBe(
      '/agreement',
    );
  });

  it('keeps one visitor id across visits', async () => {
    localStorage.setItem(VISITOR_KEY, 'kept-visitor-0001');
    vi.mocked(addComment).mockResolvedValue({
      code: 200,
      message: '成功',
      data: { id: 1, star_level: 4, toilet: CARD },
    });
    await openToilet();
    fireEvent.click(screen.getByRole('radio', { name: '4 星 良' }));
    fireEvent.click(screen.getByRole('radio', { name: '女' }));
    fireEvent.click(screen.getByRole('button', { name: '提交评价' }));
    await waitFor(() => expect(addComment).toHaveBeenCalled());
    expect(vi.mocked(addComment).mock.calls[0]![0]).toMatchObject({
      visitor_id: 'kept-visitor-0001',
      sex: 2,
    });
  });
});

describe('toiletIdOf', () => {
  it('reads a public toilet id and nothing else', () => {
    expect(toiletIdOf(`?toilet_id=${PID}`)).toBe(PID);
    expect(toiletIdOf(`?toilet_id=%20${PID}%20`)).toBe(PID);
    expect(toiletIdOf('?toilet_id=-_AAAAAAAAAAAAAAAAAAAA')).toBe('-_AAAAAAAAAAAAAAAAAAAA');
    for (const bad of [
      '',
      '?toilet_id=',
      '?toilet_id=12',
      '?toilet_id=abc',
      `?toilet_id=${PID}x`,
      `?toilet_id=${PID.slice(1)}`,
      '?toilet_id=q7Xk2bN9cR4tV1mZ8wYs3%2B',
      `?id=${PID}`,
    ]) {
      expect(toiletIdOf(bad)).toBeNull();
    }
  });
});
