import torch
import time

t = torch.rand(3,3)
ct = t.cuda()

start = time.time()
for i in range(100):
    t.inverse()

print('cpu: %f' % (time.time() - start))

start = time.time()
for i in range(100):
    ct.inverse()

print('gpu: %f' % (time.time() - start))
