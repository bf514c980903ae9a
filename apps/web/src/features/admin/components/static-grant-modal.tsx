import { normalizeLang, staticRechargeBody } from '@resi/contract';
import { Alert, Form, Input, InputNumber, Modal, Select, type ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { combineQueries, QueryState } from '@/components/query-state';
import { localizedName } from '@/lib/format';
import { numberRule, schemaRule } from '@/lib/form-rules';
import { notify } from '@/lib/notify';
import { useBusinessLines } from '../api/get-business-lines';
import { useStaticRegions } from '../api/get-static-regions';
import { useGrantStaticIps } from '../api/grant-static-ips';
import { type KnownUser, UserPicker } from '@/components/user-picker';

interface GrantValues {
  userId: number;
  regionId: number;
  businessId: number;
  quantity: number;
  days: number;
  note: string;
}

/** The form, mounted only while the modal is open, so its regions and lines are asked for then. */
function GrantForm({ grant, onDone, user }: { grant: ReturnType<typeof useGrantStaticIps>; onDone: () => void; user?: KnownUser }) {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const [form] = Form.useForm<GrantValues>();
  const catalogue = combineQueries([useStaticRegions(), useBusinessLines()]);

  const submit = (values: GrantValues) =>
    grant.mutate(
      { ...values, note: values.note.trim() },
      {
        onSuccess: (res) => {
          notify.success(res.message || t('admin.staticGrant.done'));
          onDone();
        },
      },
    );

  return (
    <QueryState query={catalogue} errorTitle={t('admin.staticGrant.loadFailed')}>
      {([regions, business]) => (
        <Form<GrantValues> id="static-grant" name="static-grant" form={form} layout="vertical" requiredMark={false} onFinish={submit} initialValues={{ quantity: 1, days: 30, userId: user?.id }}>
          <Form.Item name="userId" label={t('admin.recharge.user')} rules={[numberRule(staticRechargeBody.shape.userId, t)]}>
            <UserPicker known={user} />
          </Form.Item>
          <Form.Item name="regionId" label={t('admin.staticGrant.region')} rules={[numberRule(staticRechargeBody.shape.regionId, t)]}>
            <Select options={regions.map((r) => ({ value: r.id, label: localizedName(r.name, lang) }))} data-testid="grant-region" />
          </Form.Item>
          <Form.Item name="businessId" label={t('admin.staticGrant.business')} rules={[numberRule(staticRechargeBody.shape.businessId, t)]}>
            <Select options={business.map((b) => ({ value: b.id, label: localizedName(b.name, lang) }))} data-testid="grant-business" />
          </Form.Item>
          <div className="form-row">
            <Form.Item name="quantity" label={t('admin.staticGrant.quantity')} rules={[numberRule(staticRechargeBody.shape.quantity, t)]}>
              <InputNumber min={1} max={100} precision={0} className="full-width" data-testid="grant-quantity" />
            </Form.Item>
            <Form.Item name="days" label={t('admin.recharge.validityDays')} rules={[numberRule(staticRechargeBody.shape.days, t)]}>
              <InputNumber min={1} max={3650} precision={0} suffix={t('admin.recharge.days')} className="full-width" data-testid="grant-days" />
            </Form.Item>
          </div>
          <Form.Item name="note" label={t('admin.recharge.note')} rules={[schemaRule(staticRechargeBody.shape.note, t)]} extra={t('admin.staticGrant.noteHint')}>
            <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} maxLength={200} data-testid="grant-note" />
          </Form.Item>
        </Form>
      )}
    </QueryState>
  );
}

/** Static IPs at no charge (docs/business-rules.md#static-residential-ips, admin grants): a paid order of amount 0. */
export function StaticGrantModal({ open, onClose, user }: { open: boolean; onClose: () => void; user?: KnownUser }) {
  const { t } = useTranslation();
  const grant = useGrantStaticIps();
  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={t('admin.staticGrant.title')}
      okText={t('admin.staticGrant.submit')}
      cancelText={t('admin.cancel')}
      okButtonProps={{ htmlType: 'submit', form: 'static-grant', loading: grant.isPending, 'data-testid': 'grant-submit' } as ButtonProps}
      destroyOnHidden
      data-testid="static-grant-modal"
    >
      <Alert type="info" showIcon title={t('admin.staticGrant.hint')} className="modal-hint" />
      <GrantForm grant={grant} onDone={onClose} user={user} />
    </Modal>
  );
}
