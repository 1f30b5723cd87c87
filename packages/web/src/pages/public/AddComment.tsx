import {
  charCount,
  CODE,
  COMMENT_FLAG_KEYS,
  COMMENT_FLAGS,
  COMMENT_LEVELS,
  COMMENT_MAX_CHARS,
  formatStars,
  type ToiletCard,
} from '@se/core';
import { useEffect, useState, type FormEvent } from 'react';
import { addComment, getToiletCard } from '../../api/comments.ts';
import { SiteFooter } from '../../components/SiteFooter.tsx';
import { PageLink, usePageNav } from '../../navigation/page-nav.tsx';
import { EMPTY_DRAFT, toiletIdOf, visitorId, type ReviewDraft } from './add-comment.ts';
import './AddComment.css';

// Opened from the QR code on a toilet's wall, mostly inside WeChat: plain elements and one
// small stylesheet instead of antd's form components, big touch targets, no newer web APIs.

type Load =
  | { state: 'loading' }
  | { state: 'ready'; card: ToiletCard }
  | { state: 'failed'; message: string; retry: boolean };

const NETWORK = '网络错误，请检查网络后重试';

function StarIcon({ on }: { on: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="100%" height="100%" aria-hidden="true">
      <path
        d="M12 2.6l2.9 6 6.6.9-4.8 4.6 1.2 6.5L12 17.5l-5.9 3.1 1.2-6.5L2.5 9.5l6.6-.9z"
        fill={on ? '#fadb14' : '#e8e8e8'}
        stroke={on ? '#d4b106' : '#d9d9d9'}
        strokeWidth="1"
        strokeLinejoin="round"
      />
    </svg>
  );
}

function Stars({ value, onChange }: { value: number; onChange?: (n: number) => void }) {
  if (!onChange) {
    return (
      <div className="rc-stars rc-stars--small" role="img" aria-label={`${value} 星`}>
        {[1, 2, 3, 4, 5].map((n) => (
          <span key={n} className="rc-star">
            <StarIcon on={n <= value} />
          </span>
        ))}
      </div>
    );
  }
  return (
    <div className="rc-stars" role="radiogroup" aria-label="星级">
      {[1, 2, 3, 4, 5].map((n) => (
        <button
          key={n}
          type="button"
          role="radio"
          aria-checked={n === value}
          aria-label={`${n} 星 ${COMMENT_LEVELS[n]}`}
          className="rc-star"
          onClick={() => onChange(n)}
        >
          <StarIcon on={n <= value} />
        </button>
      ))}
    </div>
  );
}

function Header({ card }: { card: ToiletCard }) {
  return (
    <header className="rc-header">
      <h1>{card.name}</h1>
      {card.address && <p className="rc-muted">{card.address}</p>}
      <p className="rc-score">
        {card.star_count > 0 ? (
          <>
            综合评分 <strong>{formatStars(card.star_average)}</strong>
            <span className="rc-muted">（{card.star_count} 人评价）</span>
          </>
        ) : (
          <span className="rc-muted">暂无评价，欢迎第一个评价</span>
        )}
      </p>
    </header>
  );
}

function Problem({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div className="rc-problem" role="alert">
      <p>{message}</p>
      {onRetry && (
        <button type="button" className="rc-button" onClick={onRetry}>
          重新加载
        </button>
      )}
    </div>
  );
}

function Thanks({ card, stars }: { card: ToiletCard; stars: number }) {
  return (
    <div className="rc-thanks" role="status">
      <svg viewBox="0 0 48 48" width="56" height="56" aria-hidden="true">
        <circle cx="24" cy="24" r="22" fill="#52c41a" />
        <path d="M14 24.5l7 7 13-14" fill="none" stroke="#fff" strokeWidth="4" strokeLinecap="round" />
      </svg>
      <h2>感谢您的评价！</h2>
      <p className="rc-muted">您为「{card.name}」打出了</p>
      <Stars value={stars} />
      <p className="rc-level">
        {stars} 星 · {COMMENT_LEVELS[stars]}
      </p>
      <p className="rc-muted">
        当前综合评分 {formatStars(card.star_average)}（{card.star_count} 人评价）
      </p>
      <p className="rc-muted">您的意见会转给管理人员，帮助我们把这里打理得更好。</p>
    </div>
  );
}

/** /add-comment?toilet_id=…: a visitor rates a toilet from a phone. */
export default function AddComment() {
  const { search } = usePageNav();
  const toiletId = toiletIdOf(search);
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [draft, setDraft] = useState<ReviewDraft>(EMPTY_DRAFT);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<{ card: ToiletCard; stars: number } | null>(null);

  useEffect(() => {
    if (toiletId === null) return;
    let live = true;
    setLoad({ state: 'loading' });
    getToiletCard(toiletId).then(
      (res) => {
        if (!live) return;
        if (res.code === CODE.ok) setLoad({ state: 'ready', card: res.data });
        else setLoad({ state: 'failed', message: res.message, retry: res.code !== CODE.notFound });
      },
      () => live && setLoad({ state: 'failed', message: NETWORK, retry: true }),
    );
    return () => {
      live = false;
    };
  }, [toiletId, attempt]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (toiletId === null || busy) return;
    if (draft.stars === 0) {
      setError('请先点击星星为本次如厕体验评分');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const res = await addComment({
        toilet_id: toiletId,
        star_level: draft.stars,
        ...draft.flags,
        content: draft.content,
        sex: draft.sex,
        visitor_id: visitorId(),
      });
      if (res.code === CODE.ok) setDone({ card: res.data.toilet, stars: res.data.star_level });
      else if (res.code === CODE.notFound) setLoad({ state: 'failed', message: res.message, retry: false });
      else setError(res.message);
    } catch {
      setError(NETWORK);
    } finally {
      setBusy(false);
    }
  };

  let body;
  if (toiletId === null) {
    body = <Problem message="链接中缺少厕所编号或编号无效，请扫描厕所内张贴的二维码进入评价页面。" />;
  } else if (load.state === 'loading') {
    body = (
      <div className="rc-loading" role="status" aria-label="加载中">
        <div className="app-splash__spinner" />
      </div>
    );
  } else if (load.state === 'failed') {
    body = (
      <Problem message={load.message} onRetry={load.retry ? () => setAttempt((n) => n + 1) : undefined} />
    );
  } else if (done) {
    body = <Thanks card={done.card} stars={done.stars} />;
  } else {
    const count = charCount(draft.content);
    body = (
      <>
        <Header card={load.card} />
        <form className="rc-form" onSubmit={submit} noValidate>
          <section>
            <h2>本次如厕体验</h2>
            <Stars
              value={draft.stars}
              onChange={(stars) => {
                setDraft({ ...draft, stars });
                setError(null);
              }}
            />
            <p className={draft.stars ? 'rc-level' : 'rc-level rc-muted'} aria-live="polite">
              {draft.stars ? COMMENT_LEVELS[draft.stars] : '请点击星星评分'}
            </p>
          </section>

          <section>
            <h2>遇到的问题（可多选）</h2>
            <div className="rc-chips">
              {COMMENT_FLAG_KEYS.map((k) => (
                <label key={k} className={draft.flags[k] ? 'rc-chip rc-chip--on' : 'rc-chip'}>
                  <input
                    type="checkbox"
                    checked={draft.flags[k]}
                    onChange={(e) => setDraft({ ...draft, flags: { ...draft.flags, [k]: e.target.checked } })}
                  />
                  {COMMENT_FLAGS[k]}
                </label>
              ))}
            </div>
          </section>

          <section>
            <h2>
              <label htmlFor="rc-content">说说您的感受（选填）</label>
            </h2>
            <textarea
              id="rc-content"
              rows={4}
              value={draft.content}
              placeholder="例如：地面很干净 / 洗手液没有了"
              onChange={(e) =>
                setDraft({
                  ...draft,
                  content: Array.from(e.target.value).slice(0, COMMENT_MAX_CHARS).join(''),
                })
              }
            />
            <p className="rc-counter" aria-live="polite">
              {count}/{COMMENT_MAX_CHARS}
            </p>
          </section>

          <section>
            <h2 id="rc-sex">性别（选填）</h2>
            <div className="rc-chips" role="radiogroup" aria-labelledby="rc-sex">
              {(
                [
                  [1, '男'],
                  [2, '女'],
                ] as const
              ).map(([v, label]) => (
                <button
                  key={v}
                  type="button"
                  role="radio"
                  aria-checked={draft.sex === v}
                  className={draft.sex === v ? 'rc-chip rc-chip--on' : 'rc-chip'}
                  onClick={() => setDraft({ ...draft, sex: draft.sex === v ? 0 : v })}
                >
                  {label}
                </button>
              ))}
            </div>
          </section>

          {error && (
            <p className="rc-error" role="alert">
              {error}
            </p>
          )}
          <button type="submit" className="rc-button rc-button--primary" disabled={busy}>
            {busy ? '提交中…' : '提交评价'}
          </button>
          <p className="rc-muted rc-note">
            评价匿名提交，提交即表示您已阅读并同意<PageLink to="/agreement">《用户协议与隐私声明》</PageLink>
          </p>
        </form>
      </>
    );
  }

  return (
    <div className="rc-page">
      <main className="rc-card">{body}</main>
      <SiteFooter />
    </div>
  );
}
