import type { PayMethod } from '@resi/contract';
import { Radio, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { PAY_METHOD_ICONS } from '@/components/pay-method-label';

/** The enabled payment methods as large choices: icon, name, one line on how it works. */
export function PayMethodPicker({ methods, value, onChange }: { methods: readonly PayMethod[]; value: PayMethod | undefined; onChange: (method: PayMethod) => void }) {
  const { t } = useTranslation();
  return (
    <Radio.Group value={value} onChange={(e) => onChange(e.target.value as PayMethod)} className="pay-method-picker" data-testid="pay-methods">
      {methods.map((method) => {
        const Icon = PAY_METHOD_ICONS[method];
        return (
          <Radio key={method} value={method} className={`pay-method-option${value === method ? ' pay-method-option--active' : ''}`}>
            <span className="pay-method-option__content" data-testid={`pay-method-${method}`}>
              <span className={`pay-method-option__icon pay-method-option__icon--${method}`}>
                <Icon />
              </span>
              <span className="pay-method-option__body">
                <span className="pay-method-option__name">
                  {t(`commerce.payMethod.${method}`)}
                  {method === 'sandbox' ? (
                    <Tag color="orange" className="pay-method-option__tag">
                      {t('commerce.demo')}
                    </Tag>
                  ) : null}
                </span>
                <span className="pay-method-option__hint">{t(`commerce.payMethodHint.${method}`)}</span>
              </span>
            </span>
          </Radio>
        );
      })}
    </Radio.Group>
  );
}
